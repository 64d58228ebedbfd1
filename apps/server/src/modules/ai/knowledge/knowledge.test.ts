import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boardColumns, knowledgeChunks, knowledgeFiles, tenants } from '../../../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../../../test/support/build-test-app.ts';
import { bearer, registerTenant } from '../../../../test/support/factories.ts';
import { largeKnowledgeFile } from '../../../../test/support/knowledge-texts.ts';
import { makeDocx, makePdf, makePdfWithoutText, makeXlsx, makeZip, OLD_OFFICE_FILE } from '../../../../test/support/knowledge-files.ts';
import { AppError } from '../../../platform/errors/app-error.ts';
import { createDiskMediaStorage } from '../../../platform/storage/media-storage.ts';
import { columnAssistant } from '../../funnels/index.ts';
import { NOT_A_PDF, OLD_EXCEL, OLD_WORD, PDF_WITHOUT_TEXT, readKnowledgeFile, UNREADABLE_WORD, ZIP_TOO_LARGE } from './knowledge-files.ts';
import { createSandboxAiModel } from '../model/sandbox/sandbox-gemini.ts';
import { KNOWLEDGE_BUDGET_CHARS } from '../assistant/conversation-context.ts';
import { createKnowledgeIndex, restrictKnowledgeFiles } from './knowledge-index.ts';
import { createKnowledgeSearch } from './knowledge-retrieval.ts';

async function refusal(fileName: string, data: Buffer) {
  const error = await readKnowledgeFile({ fileName, data }).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).status).toBe(400);
  return (error as AppError).message;
}

describe('reading knowledge files by their content', () => {
  it('extracts the text of a PDF, a Word document and every sheet of a workbook', async () => {
    const pdf = await readKnowledgeFile({ fileName: 'Precios.PDF', data: makePdf(['El corte de cabello cuesta 250 pesos.', 'Abrimos de lunes a sábado.']) });
    expect(pdf).toEqual({ extension: 'pdf', text: 'El corte de cabello cuesta 250 pesos.\nAbrimos de lunes a sábado.' });

    const docx = await readKnowledgeFile({ fileName: 'politicas.docx', data: makeDocx(['Política de cambios', 'Aceptamos cambios durante 30 días.']) });
    expect(docx.extension).toBe('docx');
    expect(docx.text).toContain('Política de cambios');
    expect(docx.text).toContain('Aceptamos cambios durante 30 días.');

    const xlsx = await readKnowledgeFile({
      fileName: 'catalogo.xlsx',
      data: await makeXlsx({
        Productos: [
          ['producto', 'precio'],
          ['taladro', 1200],
          ['martillo', 150],
        ],
        Sucursales: [
          ['ciudad', 'horario'],
          ['Puebla', '9 a 18 h'],
        ],
      }),
    });
    expect(xlsx).toEqual({
      extension: 'xlsx',
      text: 'Hoja Productos:\nproducto: taladro, precio: 1200.\nproducto: martillo, precio: 150.\n\nHoja Sucursales:\nciudad: Puebla, horario: 9 a 18 h.',
    });
  });

  it('reads CSV rows with their headers (quotes and semicolons too), Markdown, TXT and JSON as text', async () => {
    const csv = await readKnowledgeFile({
      fileName: 'precios.csv',
      data: Buffer.from('\uFEFFproducto;precio\r\n"Taladro, 600 W";1200\r\n\r\nmartillo;150\r\n'),
    });
    expect(csv.text).toBe('producto: Taladro, 600 W, precio: 1200.\nproducto: martillo, precio: 150.');
    expect((await readKnowledgeFile({ fileName: 'faq.md', data: Buffer.from('# Preguntas\n\n**Envíos**: gratis desde $500.') })).text).toBe(
      '# Preguntas\n\n**Envíos**: gratis desde $500.',
    );
    expect((await readKnowledgeFile({ fileName: 'notas.txt', data: Buffer.from('Hola') })).extension).toBe('txt');
    expect((await readKnowledgeFile({ fileName: 'datos.json', data: Buffer.from('{"envio":"gratis","dias":3}') })).text).toBe(
      '{\n "envio": "gratis",\n "dias": 3\n}',
    );
  });

  it.each([
    ['text named .pdf', 'precios.pdf', Buffer.from('no soy un pdf'), 'El archivo no es un PDF válido: su contenido no corresponde a su extensión.'],
    ['a broken PDF', 'roto.pdf', Buffer.from('%PDF-1.4\nbasura sin estructura'), NOT_A_PDF],
    ['a scanned PDF without text', 'escaneo.pdf', makePdfWithoutText(), PDF_WITHOUT_TEXT],
    ['an old .doc', 'contrato.doc', OLD_OFFICE_FILE, OLD_WORD],
    ['an old Word file renamed .docx', 'contrato.docx', OLD_OFFICE_FILE, OLD_WORD],
    ['an old .xls', 'precios.xls', OLD_OFFICE_FILE, OLD_EXCEL],
    ['a zip that is no Word document', 'carta.docx', makeZip([{ name: 'hola.txt', data: 'hola' }]), UNREADABLE_WORD],
    ['a zip bomb', 'bomba.docx', makeDocx(['hola'], { declaredSize: 4_000_000_000 }), ZIP_TOO_LARGE],
    ['a PDF renamed .txt', 'notas.txt', makePdf(['hola']), 'El archivo no es un TXT válido: su contenido no corresponde a su extensión.'],
    ['an empty text', 'vacio.md', Buffer.from(' \n\n '), 'El archivo no tiene texto que el asistente pueda leer.'],
    ['an image', 'foto.png', Buffer.from('89504e470d0a1a0a', 'hex'), 'Sube un archivo PDF, DOCX, XLSX, CSV, TXT, JSON o MD.'],
  ])('refuses %s and says why', async (_case, fileName, data, message) => {
    expect(await refusal(fileName, data)).toBe(message);
  });
});

describe('knowledge files uploaded to a column', () => {
  let t: TestApp;
  const model = createSandboxAiModel();
  const search = createKnowledgeSearch({ model, log: { warn: () => {} } });
  beforeAll(async () => {
    t = await buildTestApp({ providerMode: 'sandbox', aiModel: model });
  });
  afterAll(() => t.close());

  type Owner = Awaited<ReturnType<typeof registerTenant>>;
  async function columnOf() {
    const owner = await registerTenant(t.app);
    const [funnel] = (await t.app.inject({ method: 'GET', url: '/api/funnels/summary', headers: bearer(owner.token) })).json() as { id: string }[];
    const [column] = (await t.app.inject({ method: 'GET', url: `/api/funnels/${funnel!.id}/columns`, headers: bearer(owner.token) })).json() as {
      id: string;
    }[];
    return { owner, columnId: column!.id, funnelId: funnel!.id };
  }
  const upload = async (owner: Owner, columnId: string, fileName: string, content: Buffer) => {
    const boundary = `----embudo${crypto.randomUUID()}`;
    const body = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="tool_file"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      content,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    return t.app.inject({
      method: 'POST',
      url: `/api/columns/${columnId}/tools/upload`,
      headers: { ...bearer(owner.token), 'content-type': `multipart/form-data; boundary=${boundary}` },
      body,
    });
  };
  const uploaded = async (owner: Owner, columnId: string, fileName: string, content: string) => {
    const response = await upload(owner, columnId, fileName, Buffer.from(content));
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as { fileName: string; filePath: string };
  };
  const saveFiles = (owner: Owner, columnId: string, files: { fileName: string; filePath: string }[]) =>
    t.app.inject({
      method: 'PUT',
      url: `/api/columns/${columnId}`,
      headers: bearer(owner.token),
      payload: {
        gemini_config: {
          isEnabled: true,
          systemPrompt: '',
          tools: files.map((file, index) => ({ type: 'file_upload', id: `f${index}`, ...file, purpose: '' })),
        },
      },
    });
  const filesOf = (tenantId: string) => (fs.existsSync(path.join(t.mediaDir, tenantId)) ? fs.readdirSync(path.join(t.mediaDir, tenantId)) : []);
  const states = (owner: Owner, columnId: string) => t.app.inject({ method: 'GET', url: `/api/columns/${columnId}/tools/files`, headers: bearer(owner.token) });

  it("puts a column's small files whole into the context, in the column's order", async () => {
    const { owner, columnId } = await columnOf();
    const prices = await uploaded(owner, columnId, 'precios.txt', 'El corte de cabello cuesta 250 pesos.\nEl tinte cuesta 600 pesos.');
    const hours = await uploaded(owner, columnId, 'horario.md', '# Horario\nAbrimos a las 7:45 de lunes a sábado.');
    const found = await search(t.database.db, {
      tenantId: owner.tenant.id,
      filePaths: [hours.filePath, prices.filePath],
      query: 'hola',
      maxChars: KNOWLEDGE_BUDGET_CHARS,
    });
    expect(found).toEqual([
      { fileName: 'horario.md', text: '# Horario\nAbrimos a las 7:45 de lunes a sábado.' },
      { fileName: 'precios.txt', text: 'El corte de cabello cuesta 250 pesos.\nEl tinte cuesta 600 pesos.' },
    ]);
  });

  it("finds the passage of a large file by the customer's word forms, with or without its vectors", async () => {
    const { owner, columnId } = await columnOf();
    const manual = await uploaded(owner, columnId, 'manual.txt', largeKnowledgeFile('Abrimos a las 7:45 de lunes a sábado; los domingos descansamos.'));
    const query = { tenantId: owner.tenant.id, filePaths: [manual.filePath], query: '¿A qué hora abren mañana?', maxChars: KNOWLEDGE_BUDGET_CHARS };
    const has745 = (excerpts: { text: string }[]) => excerpts.some((excerpt) => excerpt.text.includes('Abrimos a las 7:45'));
    // Right after the upload only the lexical half has the file: its vectors are the job's.
    expect(has745(await search(t.database.db, { ...query, strategy: 'lexical' }))).toBe(true);
    expect(await search(t.database.db, { ...query, strategy: 'vector' })).toEqual([]);
    expect(has745(await search(t.database.db, query))).toBe(true);

    await t.app.queue.runDueJobsOnce();
    expect(has745(await search(t.database.db, { ...query, strategy: 'vector' }))).toBe(true);
    const found = await search(t.database.db, query);
    expect(has745(found)).toBe(true);
    expect(found.reduce((sum, excerpt) => sum + excerpt.text.length, 0)).toBeLessThanOrEqual(KNOWLEDGE_BUDGET_CHARS);
  });

  it('refuses a file it cannot read with the reason, and stores nothing', async () => {
    const { owner, columnId } = await columnOf();
    const refused = await upload(owner, columnId, 'escaneo.pdf', makePdfWithoutText());
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ code: 'BAD_REQUEST', message: PDF_WITHOUT_TEXT });
    expect(filesOf(owner.tenant.id)).toEqual([]);
    expect(await t.database.db.select().from(knowledgeChunks).where(eq(knowledgeChunks.tenantId, owner.tenant.id))).toEqual([]);
    expect(await t.database.db.select().from(knowledgeFiles).where(eq(knowledgeFiles.tenantId, owner.tenant.id))).toEqual([]);
    const [column] = await t.database.db.select().from(boardColumns).where(eq(boardColumns.id, columnId));
    expect(column!.geminiConfig).toBeNull();
  });

  it('keeps every file of uploads made at the same moment: each one is in the column, indexed and searched', async () => {
    const { owner, columnId } = await columnOf();
    const files = [
      ['precios.txt', 'El corte de cabello cuesta 250 pesos.'],
      ['envios.txt', 'El envío a domicilio cuesta 90 pesos.'],
      ['horario.txt', 'Nuestro horario: de lunes a sábado, de 10 a 19 horas.'],
      ['pagos.txt', 'Aceptamos pago con tarjeta y transferencia.'],
    ] as const;
    const answers = await Promise.all(files.map(([fileName, text]) => upload(owner, columnId, fileName, Buffer.from(text))));
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(201);
    const tools = answers.map((answer) => answer.json() as { type: string; id: string; fileName: string; filePath: string; purpose: string });
    expect(tools.map((tool) => tool.fileName)).toEqual(files.map(([fileName]) => fileName));
    for (const tool of tools)
      expect(tool).toEqual({ type: 'file_upload', id: expect.any(String), fileName: tool.fileName, filePath: tool.filePath, purpose: '' });

    // The column's assistant names all four, whatever order they were kept in; its context search is given all four.
    const assistant = (await columnAssistant(t.database.db, owner.tenant.id, columnId))!.assistant!;
    expect(assistant).toMatchObject({ isEnabled: false, systemPrompt: '' });
    const byId = (a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id);
    expect([...assistant.tools].sort(byId)).toEqual([...tools].sort(byId));
    const filePaths = assistant.tools.flatMap((tool) => (tool.type === 'file_upload' ? [tool.filePath] : []));
    const found = await search(t.database.db, {
      tenantId: owner.tenant.id,
      filePaths,
      query: '¿Cuánto cuesta el envío y el corte? ¿Qué horario tienen? ¿Aceptan tarjeta?',
      maxChars: 5_000,
    });
    expect(found.map((excerpt) => excerpt.fileName).sort()).toEqual(files.map(([fileName]) => fileName).sort());
  });

  it("serves a knowledge file only to its company's members: 401 without a session, 404 for another company", async () => {
    const a = await columnOf();
    const b = await columnOf();
    const { filePath } = (await upload(a.owner, a.columnId, 'precios.txt', Buffer.from('El corte cuesta 250 pesos.'))).json() as { filePath: string };
    // Its URL keeps the form the column config accepts; the file is not in the public area.
    expect(filePath).toMatch(new RegExp(`^/media/${a.owner.tenant.id}/[0-9a-f-]{36}\\.txt$`));
    expect(filesOf(a.owner.tenant.id)).not.toContain(path.basename(filePath));

    for (const method of ['GET', 'HEAD'] as const) {
      const anonymous = await t.app.inject({ method, url: filePath });
      expect(anonymous.statusCode, method).toBe(401);
    }
    expect((await t.app.inject({ method: 'GET', url: filePath })).json()).toEqual({ code: 'UNAUTHORIZED', message: 'Sesión inválida o expirada.' });
    expect((await t.app.inject({ method: 'GET', url: filePath, headers: { authorization: 'Bearer nada' } })).statusCode).toBe(401);
    const stranger = await t.app.inject({ method: 'GET', url: filePath, headers: bearer(b.owner.token) });
    expect(stranger.statusCode).toBe(404);
    expect(stranger.json()).toEqual({ code: 'NOT_FOUND', message: 'Archivo no encontrado.' });

    const member = await t.app.inject({ method: 'GET', url: filePath, headers: bearer(a.owner.token) });
    expect(member.statusCode).toBe(200);
    expect(member.body).toBe('El corte cuesta 250 pesos.');
    expect(member.headers['cache-control']).toBe('private, no-store');
    const missing = await t.app.inject({ method: 'GET', url: `/media/${a.owner.tenant.id}/${crypto.randomUUID()}.txt`, headers: bearer(a.owner.token) });
    expect(missing.statusCode).toBe(404);
  });

  it('makes knowledge files stored before the members-only area members-only in its upkeep, once', async () => {
    const { owner } = await columnOf();
    const name = `${crypto.randomUUID()}.txt`;
    const filePath = `/media/${owner.tenant.id}/${name}`;
    fs.mkdirSync(path.join(t.mediaDir, owner.tenant.id), { recursive: true });
    fs.writeFileSync(path.join(t.mediaDir, owner.tenant.id, name), 'Lista de precios antigua.');
    const storage = createDiskMediaStorage(t.mediaDir);
    const quiet = { warn: () => {}, info: () => {} };
    const index = createKnowledgeIndex({ db: t.database.db, model, log: quiet, storage }, { enqueue: async () => null });
    await index.indexFile({ tenantId: owner.tenant.id, filePath, fileName: 'antigua.txt', text: 'Lista de precios antigua.' });
    expect((await t.app.inject({ method: 'GET', url: filePath })).statusCode).toBe(200);

    await index.upkeepJob.handler({}, { jobId: 'upkeep', attempt: 1 });
    expect((await t.app.inject({ method: 'GET', url: filePath })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: filePath, headers: bearer(owner.token) })).body).toBe('Lista de precios antigua.');
    expect(await restrictKnowledgeFiles(t.database.db, storage)).toBe(0);
  });

  it("never returns another company's passages, nor a file the column does not name", async () => {
    const a = await columnOf();
    const b = await columnOf();
    const ofA = await uploaded(a.owner, a.columnId, 'horario.txt', largeKnowledgeFile('Nuestro horario: de lunes a viernes de 9 a 18 horas.'));
    const ofB = await uploaded(b.owner, b.columnId, 'secreto.txt', largeKnowledgeFile('Horario secreto: abrimos los domingos.'));
    const otherOfA = await uploaded(a.owner, a.columnId, 'otro.txt', 'Los domingos abrimos también.');
    await t.app.queue.runDueJobsOnce();
    const query = { query: '¿Qué horario tienen los domingos?', maxChars: KNOWLEDGE_BUDGET_CHARS };
    const texts = async (tenantId: string, filePaths: string[], strategy: 'hybrid' | 'vector' = 'hybrid') =>
      (await search(t.database.db, { tenantId, filePaths, ...query, strategy })).map((excerpt) => excerpt.text).join('\n');

    // A's search naming B's file (as a forged column config would) finds nothing of B's, by words or by vectors.
    for (const strategy of ['hybrid', 'vector'] as const) {
      const ofBoth = await texts(a.owner.tenant.id, [ofA.filePath, ofB.filePath], strategy);
      expect(ofBoth).toContain('Nuestro horario');
      expect(ofBoth).not.toContain('secreto');
    }
    expect(await search(t.database.db, { tenantId: b.owner.tenant.id, filePaths: [ofA.filePath, otherOfA.filePath], ...query })).toEqual([]);
    // Re-indexing the same path under another company leaves A's passages alone.
    const index = createKnowledgeIndex({ db: t.database.db, model, log: { warn: () => {}, info: () => {} } }, { enqueue: async () => null });
    await index.indexFile({ tenantId: b.owner.tenant.id, filePath: ofA.filePath, fileName: 'intruso.txt', text: 'Abrimos los domingos.' });
    expect(await texts(a.owner.tenant.id, [ofA.filePath])).toContain('Nuestro horario');
    expect(await texts(a.owner.tenant.id, [ofA.filePath])).not.toContain('intruso');
  });

  it("lists the column's files with where their indexing stands", async () => {
    const { owner, columnId } = await columnOf();
    const manual = await uploaded(owner, columnId, 'manual.txt', largeKnowledgeFile('Hacemos envíos a todo el país.'));
    const prices = await uploaded(owner, columnId, 'precios.txt', 'El corte cuesta 250 pesos.');
    expect((await saveFiles(owner, columnId, [manual, prices])).statusCode).toBe(200);
    const passages = (await t.database.db.select().from(knowledgeChunks).where(eq(knowledgeChunks.filePath, manual.filePath))).length;
    expect(passages).toBeGreaterThan(3);

    expect((await states(owner, columnId)).json()).toEqual([
      { filePath: manual.filePath, fileName: 'manual.txt', state: 'indexing', passages },
      { filePath: prices.filePath, fileName: 'precios.txt', state: 'indexing', passages: 1 },
    ]);
    await t.app.queue.runDueJobsOnce();
    expect((await states(owner, columnId)).json()).toEqual([
      { filePath: manual.filePath, fileName: 'manual.txt', state: 'indexed', passages },
      { filePath: prices.filePath, fileName: 'precios.txt', state: 'indexed', passages: 1 },
    ]);
  });

  it("answers 400 for a bad column id, 403 to a viewer and 404 for another company's column", async () => {
    const a = await columnOf();
    const b = await columnOf();
    const bad = await t.app.inject({ method: 'GET', url: '/api/columns/no-es-un-id/tools/files', headers: bearer(a.owner.token) });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ message: 'Columna inválida.' });
    expect((await states(a.owner, b.columnId)).statusCode).toBe(404);

    await t.database.db.update(tenants).set({ subscriptionPlan: 'enterprise' }).where(eq(tenants.id, a.owner.tenant.id));
    const email = `viewer-${crypto.randomUUID().slice(0, 8)}@x.test`;
    const invited = (
      await t.app.inject({
        method: 'POST',
        url: '/api/users/invite',
        headers: bearer(a.owner.token),
        payload: { name: 'Visor', email, role: 'viewer', funnelIds: [a.funnelId] },
      })
    ).json() as { tempPassword: string };
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password: invited.tempPassword, tenantSlug: a.owner.tenant.slug },
    });
    const changed = await t.app.inject({
      method: 'PUT',
      url: '/api/auth/change-password',
      headers: bearer((login.json() as { token: string }).token),
      payload: { newPassword: 'Miembro123' },
    });
    const viewer = { ...a.owner, token: (changed.json() as { token: string }).token };
    expect((await states(viewer, a.columnId)).statusCode).toBe(403);
    expect((await states(a.owner, a.columnId)).json()).toEqual([]);
  });
});
