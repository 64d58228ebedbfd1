import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { AI_FALLBACK_REPLY_DEFAULT } from '@embudo/contracts/http/funnels';
import { boardColumns, columnTemplates, messageTemplates, quickReplies, tenants } from '../../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../../test/support/build-test-app.ts';
import { createDiskMediaStorage } from '../../platform/storage/media-storage.ts';
import { type ToolFileKnowledge, uploadToolFile } from './column-settings.service.ts';
import { bearer, registerTenant } from '../../../test/support/factories.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ providerMode: 'sandbox' });
});
afterAll(async () => t.close());

type Owner = Awaited<ReturnType<typeof registerTenant>>;
const call = (owner: Owner, method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, payload?: unknown) =>
  t.app.inject({ method, url: `/t/${owner.tenant.slug}/api${path}`, headers: bearer(owner.token), payload: payload as object });

async function setup() {
  const owner = await registerTenant(t.app);
  const [funnel] = (await call(owner, 'GET', '/funnels/summary')).json();
  const columns = (await call(owner, 'GET', `/funnels/${funnel.id}/columns`)).json();
  return { owner, funnel, column: columns[0], other: columns[1] };
}

async function memberWith(owner: Owner, role: 'agent' | 'viewer', funnelIds: string[]) {
  await t.database.db.update(tenants).set({ subscriptionPlan: 'enterprise' }).where(eq(tenants.id, owner.tenant.id));
  const email = `${role}-${crypto.randomUUID().slice(0, 8)}@x.test`;
  const invited = (await call(owner, 'POST', '/users/invite', { name: role, email, role, funnelIds })).json();
  const login = await t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email, password: invited.tempPassword, tenantSlug: owner.tenant.slug },
  });
  const token = (
    await t.app.inject({ method: 'PUT', url: '/api/auth/change-password', headers: bearer(login.json().token), payload: { newPassword: 'Miembro123' } })
  ).json().token;
  return { ...owner, token };
}

async function aTemplate(tenantId: string, name: string) {
  const [row] = await t.database.db
    .insert(messageTemplates)
    .values({ tenantId, name, category: 'UTILITY', languageCode: 'es', bodyText: `Hola {{1}}, ${name}` })
    .returning();
  return row!.id;
}

function multipart(field: string, fileName: string, content: Buffer | string) {
  const boundary = `----embudo${crypto.randomUUID()}`;
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    Buffer.isBuffer(content) ? content : Buffer.from(content),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const upload = (owner: Owner, columnId: string, field: string, fileName: string, content: Buffer | string) => {
  const form = multipart(field, fileName, content);
  return t.app.inject({
    method: 'POST',
    url: `/t/${owner.tenant.slug}/api/columns/${columnId}/tools/upload`,
    headers: { ...bearer(owner.token), ...form.headers },
    body: form.body,
  });
};

describe('quick replies', () => {
  it("creates, lists, edits and deletes a column's quick replies", async () => {
    const { owner, column, other } = await setup();
    const created = await call(owner, 'POST', '/quick-replies', { columnId: column.id, title: '  Horario ', text: 'Abrimos de 9 a 18 h.' });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toEqual({ id: expect.any(String), columnId: column.id, title: 'Horario', text: 'Abrimos de 9 a 18 h.' });
    await call(owner, 'POST', '/quick-replies', { columnId: column.id, title: 'Precios', text: 'Te envío la lista.' });
    await call(owner, 'POST', '/quick-replies', { columnId: other.id, title: 'Otra', text: 'De otra columna.' });

    const listed = (await call(owner, 'GET', `/columns/${column.id}/quick-replies`)).json();
    expect(listed.map((reply: { title: string }) => reply.title)).toEqual(['Horario', 'Precios']);

    const edited = await call(owner, 'PUT', `/quick-replies/${created.json().id}`, { title: 'Horario de atención', text: 'Abrimos de 9 a 19 h.' });
    expect(edited.json()).toMatchObject({ title: 'Horario de atención', text: 'Abrimos de 9 a 19 h.' });

    expect((await call(owner, 'DELETE', `/quick-replies/${created.json().id}`)).statusCode).toBe(204);
    expect((await call(owner, 'GET', `/columns/${column.id}/quick-replies`)).json().map((reply: { title: string }) => reply.title)).toEqual(['Precios']);
    expect((await call(owner, 'DELETE', `/quick-replies/${created.json().id}`)).statusCode).toBe(404);
  });

  it.each([
    [{ title: '  ', text: 'algo' }, 'El título es requerido.'],
    [{ title: 'Algo', text: '' }, 'El texto es requerido.'],
    [{ text: 'sin título' }, 'El título es requerido.'],
    [{ title: 'Sin texto' }, 'El texto es requerido.'],
  ])('refuses %o with 400 and writes nothing', async (payload, message) => {
    const { owner, column } = await setup();
    const created = await call(owner, 'POST', '/quick-replies', { columnId: column.id, ...payload });
    expect(created.statusCode).toBe(400);
    expect(created.json().message).toBe(message);

    const existing = (await call(owner, 'POST', '/quick-replies', { columnId: column.id, title: 'Original', text: 'Texto original' })).json();
    const edited = await call(owner, 'PUT', `/quick-replies/${existing.id}`, payload);
    expect(edited.statusCode).toBe(400);
    expect(edited.json().message).toBe(message);
    const rows = await t.database.db.select().from(quickReplies).where(eq(quickReplies.tenantId, owner.tenant.id));
    expect(rows.map((row) => [row.title, row.text])).toEqual([['Original', 'Texto original']]);
  });

  it("answers 404 for another tenant's column or quick reply, and the funnel access rules", async () => {
    const a = await setup();
    const b = await setup();
    const ofB = (await call(b.owner, 'POST', '/quick-replies', { columnId: b.column.id, title: 'De B', text: 'Secreto de B' })).json();

    expect((await call(a.owner, 'GET', `/columns/${b.column.id}/quick-replies`)).statusCode).toBe(404);
    expect((await call(a.owner, 'POST', '/quick-replies', { columnId: b.column.id, title: 'x', text: 'y' })).statusCode).toBe(404);
    expect((await call(a.owner, 'PUT', `/quick-replies/${ofB.id}`, { title: 'x', text: 'y' })).statusCode).toBe(404);
    expect((await call(a.owner, 'DELETE', `/quick-replies/${ofB.id}`)).statusCode).toBe(404);
    expect((await call(b.owner, 'GET', `/columns/${b.column.id}/quick-replies`)).json()).toEqual([ofB]);

    const ofA = (await call(a.owner, 'POST', '/quick-replies', { columnId: a.column.id, title: 'De A', text: 'Texto' })).json();
    const agentWithout = await memberWith(a.owner, 'agent', []);
    expect((await call(agentWithout, 'GET', `/columns/${a.column.id}/quick-replies`)).statusCode).toBe(404);
    expect((await call(agentWithout, 'PUT', `/quick-replies/${ofA.id}`, { title: 'x', text: 'y' })).statusCode).toBe(404);

    const viewer = await memberWith(a.owner, 'viewer', [a.funnel.id]);
    expect((await call(viewer, 'GET', `/columns/${a.column.id}/quick-replies`)).json()).toEqual([ofA]);
    expect((await call(viewer, 'POST', '/quick-replies', { columnId: a.column.id, title: 'x', text: 'y' })).statusCode).toBe(403);
    expect((await call(viewer, 'PUT', `/quick-replies/${ofA.id}`, { title: 'x', text: 'y' })).statusCode).toBe(403);
    expect((await call(viewer, 'DELETE', `/quick-replies/${ofA.id}`)).statusCode).toBe(403);

    const agentWith = await memberWith(a.owner, 'agent', [a.funnel.id]);
    expect((await call(agentWith, 'PUT', `/quick-replies/${ofA.id}`, { title: 'Editada', text: 'por el agente' })).statusCode).toBe(200);
  });

  it('goes with its column when the column is deleted', async () => {
    const { owner, funnel } = await setup();
    const column = (await call(owner, 'POST', '/columns', { funnelId: funnel.id, title: 'Temporal' })).json();
    await call(owner, 'POST', '/quick-replies', { columnId: column.id, title: 'x', text: 'y' });
    expect((await call(owner, 'DELETE', `/columns/${column.id}`)).statusCode).toBe(204);
    expect(await t.database.db.select().from(quickReplies).where(eq(quickReplies.columnId, column.id))).toHaveLength(0);
  });
});

describe('assigned templates', () => {
  it("stores the column's templates, replaces them and accepts only this tenant's templates", async () => {
    const a = await setup();
    const b = await setup();
    const bienvenida = await aTemplate(a.owner.tenant.id, 'bienvenida');
    const seguimiento = await aTemplate(a.owner.tenant.id, 'seguimiento');
    const deB = await aTemplate(b.owner.tenant.id, 'de_b');

    expect((await call(a.owner, 'GET', `/columns/${a.column.id}/assigned-templates`)).json()).toEqual({ templateIds: [] });
    const saved = await call(a.owner, 'PUT', `/columns/${a.column.id}/assigned-templates`, { templateIds: [bienvenida, seguimiento, bienvenida] });
    expect(saved.json()).toEqual({ templateIds: [bienvenida, seguimiento] });
    expect((await call(a.owner, 'GET', `/columns/${a.column.id}/assigned-templates`)).json().templateIds.sort()).toEqual([bienvenida, seguimiento].sort());

    const foreign = await call(a.owner, 'PUT', `/columns/${a.column.id}/assigned-templates`, { templateIds: [seguimiento, deB] });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toBe('Plantilla no encontrada.');
    expect((await call(a.owner, 'GET', `/columns/${a.column.id}/assigned-templates`)).json().templateIds.sort()).toEqual([bienvenida, seguimiento].sort());

    expect((await call(a.owner, 'PUT', `/columns/${a.column.id}/assigned-templates`, { templateIds: [seguimiento] })).json()).toEqual({
      templateIds: [seguimiento],
    });
    expect((await call(a.owner, 'PUT', `/columns/${a.column.id}/assigned-templates`, { templateIds: ['no-uuid'] })).statusCode).toBe(400);
    expect((await call(a.owner, 'PUT', `/columns/${a.column.id}/assigned-templates`, {})).statusCode).toBe(400);

    expect((await call(a.owner, 'GET', `/columns/${b.column.id}/assigned-templates`)).statusCode).toBe(404);
    expect((await call(a.owner, 'PUT', `/columns/${b.column.id}/assigned-templates`, { templateIds: [] })).statusCode).toBe(404);
    const viewer = await memberWith(a.owner, 'viewer', [a.funnel.id]);
    expect((await call(viewer, 'PUT', `/columns/${a.column.id}/assigned-templates`, { templateIds: [] })).statusCode).toBe(403);

    // A deleted template leaves the assignment with it.
    await t.database.db.delete(messageTemplates).where(eq(messageTemplates.id, seguimiento));
    expect(await t.database.db.select().from(columnTemplates).where(eq(columnTemplates.columnId, a.column.id))).toHaveLength(0);
  });
});

describe('column assistant', () => {
  it('uploads a tool file checked by content and saves the gemini_config with it', async () => {
    const { owner, column, funnel } = await setup();
    const uploaded = await upload(owner, column.id, 'tool_file', 'precios.csv', 'producto,precio\ntaladro,1200\n');
    expect(uploaded.statusCode).toBe(201);
    const { fileName, filePath, id } = uploaded.json();
    expect(fileName).toBe('precios.csv');
    expect(filePath).toMatch(new RegExp(`^/media/${owner.tenant.id}/[0-9a-f-]{36}\\.csv$`));
    // The server keeps the file in the column's assistant config (off until someone switches it on).
    const afterUpload = (await call(owner, 'GET', `/funnels/${funnel.id}/board`)).json().columns[0].gemini_config;
    expect(afterUpload).toEqual({
      isEnabled: false,
      systemPrompt: '',
      tools: [{ type: 'file_upload', id, fileName, filePath, purpose: '' }],
      quietSeconds: 4,
      pauseOnHumanReply: true,
      fallbackReply: AI_FALLBACK_REPLY_DEFAULT,
    });

    const config = {
      isEnabled: true,
      systemPrompt: 'Eres el asistente de ventas.',
      tools: [{ type: 'file_upload', id: 't1', fileName, filePath, purpose: 'Lista de precios' }],
    };
    const saved = await call(owner, 'PUT', `/columns/${column.id}`, { gemini_config: config });
    expect(saved.statusCode).toBe(200);
    // Unsent timing settings take their defaults.
    const stored = { ...config, quietSeconds: 4, pauseOnHumanReply: true, fallbackReply: AI_FALLBACK_REPLY_DEFAULT };
    expect(saved.json().gemini_config).toEqual(stored);
    const board = (await call(owner, 'GET', `/funnels/${funnel.id}/board`)).json();
    expect(board.columns[0].gemini_config).toEqual(stored);

    // Choosing a column bot turns the generic assistant off.
    const botId = (await call(owner, 'POST', '/bots', { name: 'Agenda' })).json().id as string;
    const withBot = (await call(owner, 'PUT', `/columns/${column.id}`, { assistant_bot_id: botId })).json();
    expect(withBot).toMatchObject({ assistant_bot_id: botId, gemini_config: { ...config, isEnabled: false } });
    expect((await call(owner, 'PUT', `/columns/${column.id}`, { assistant_bot_id: null })).json().assistant_bot_id).toBeNull();
  });

  it.each([
    ['a text file named .json that does not parse', 'datos.json', '{"a": ', 'El archivo JSON no es válido.'],
    [
      'a PNG renamed to .csv',
      'precios.csv',
      Buffer.from(
        '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4c40000000049454e44ae426082',
        'hex',
      ),
      'El archivo no es un CSV válido: su contenido no corresponde a su extensión.',
    ],
    ['a .exe', 'programa.exe', 'MZ', 'Sube un archivo PDF, DOCX, XLSX, CSV, TXT, JSON o MD.'],
    [
      'binary bytes in a .txt',
      'notas.txt',
      Buffer.from([0x66, 0x00, 0xff, 0xfe]),
      'El archivo no es texto UTF-8: guárdalo como texto (UTF-8) o súbelo como PDF, DOCX o XLSX.',
    ],
    ['an empty file', 'vacio.txt', '', 'Falta el archivo (campo tool_file).'],
    ['more than 5 MB', 'enorme.txt', 'a'.repeat(5 * 1024 * 1024 + 10), 'El archivo de herramienta supera el límite de 5 MB.'],
  ])('refuses %s with 400', async (_case, fileName, content, message) => {
    const { owner, column } = await setup();
    const response = await upload(owner, column.id, 'tool_file', fileName, content);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(message);
  });

  it("refuses a file in another field, another tenant's column, a viewer, and a tool path of another tenant", async () => {
    const a = await setup();
    const b = await setup();
    expect((await upload(a.owner, a.column.id, 'file', 'precios.csv', 'a,b\n')).json().message).toBe('Falta el archivo (campo tool_file).');
    expect((await upload(a.owner, b.column.id, 'tool_file', 'precios.csv', 'a,b\n')).statusCode).toBe(404);
    const viewer = await memberWith(a.owner, 'viewer', [a.funnel.id]);
    expect((await upload(viewer, a.column.id, 'tool_file', 'precios.csv', 'a,b\n')).statusCode).toBe(403);

    const ofB = (await upload(b.owner, b.column.id, 'tool_file', 'secreto.txt', 'secreto')).json();
    const foreign = await call(a.owner, 'PUT', `/columns/${a.column.id}`, {
      gemini_config: {
        isEnabled: true,
        systemPrompt: '',
        tools: [{ type: 'file_upload', id: 'x', fileName: 'secreto.txt', filePath: ofB.filePath, purpose: '' }],
      },
    });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().message).toBe('Un archivo de herramienta no pertenece a esta empresa: súbelo de nuevo.');
    const invalid = await call(a.owner, 'PUT', `/columns/${a.column.id}`, { gemini_config: { isEnabled: 'sí' } });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().message).toBe('Indica isEnabled: true o false.');
    const [row] = await t.database.db.select().from(boardColumns).where(eq(boardColumns.id, a.column.id));
    expect(row!.geminiConfig).toBeNull();
    const [ofBColumn] = await t.database.db.select().from(boardColumns).where(eq(boardColumns.id, b.column.id));
    expect(ofBColumn!.geminiConfig!.tools.map((tool) => tool.type === 'file_upload' && tool.fileName)).toEqual(['secreto.txt']);
  });

  it('keeps every file when uploads reach the column at the same moment', async () => {
    const { owner, column } = await setup();
    const uploads = 4;
    // Every upload waits for the others after indexing, so all of them add their tool to the column together.
    let arrived = 0;
    let allArrived!: () => void;
    const together = new Promise<void>((resolve) => (allArrived = resolve));
    const toolFiles: ToolFileKnowledge = {
      read: async ({ data }) => ({ extension: 'txt', text: data.toString() }),
      states: async () => [],
      index: async () => {
        arrived += 1;
        if (arrived === uploads) allArrived();
        await together;
      },
    };
    const scope = {
      db: t.database.db,
      tenantId: owner.tenant.id,
      actor: { userId: owner.user.id, role: 'owner' as const, funnelIds: [] },
      storage: createDiskMediaStorage(t.mediaDir),
      toolFiles,
      events: { boardUpdated: () => {} },
    };
    // On PostgreSQL the pool opens a connection for each, so their transactions run side by side.
    await Promise.all(Array.from({ length: uploads }, () => t.database.db.execute(sql`select 1`)));
    const tools = await Promise.all(
      Array.from({ length: uploads }, (_, n) => uploadToolFile(scope, column.id, { data: Buffer.from(`archivo ${n}`), fileName: `archivo-${n}.txt` })),
    );
    const [row] = await t.database.db.select().from(boardColumns).where(eq(boardColumns.id, column.id));
    const byId = (a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id);
    expect([...row!.geminiConfig!.tools].sort(byId)).toEqual([...tools].sort(byId));
  });

  it('adds an upload to the tools the column already has, and refuses one past 20 tools with nothing written', async () => {
    const { owner, column } = await setup();
    const webhook = (n: number) => ({ type: 'webhook', id: `w${n}`, label: `Servicio ${n}`, method: 'GET', url: `https://tienda.example/${n}`, purpose: '' });
    const nineteen = Array.from({ length: 19 }, (_, n) => webhook(n));
    const saved = await call(owner, 'PUT', `/columns/${column.id}`, { gemini_config: { isEnabled: true, systemPrompt: 'Hola', tools: nineteen } });
    expect(saved.statusCode, saved.body).toBe(200);
    const twentieth = await upload(owner, column.id, 'tool_file', 'precios.csv', 'producto,precio\ntaladro,1200\n');
    expect(twentieth.statusCode, twentieth.body).toBe(201);
    const [row] = await t.database.db.select().from(boardColumns).where(eq(boardColumns.id, column.id));
    expect(row!.geminiConfig).toMatchObject({ isEnabled: true, systemPrompt: 'Hola', tools: [...nineteen, twentieth.json()] });

    const refused = await upload(owner, column.id, 'tool_file', 'envios.csv', 'zona,precio\ncentro,90\n');
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe('Como máximo 20 herramientas por columna.');
    const [after] = await t.database.db.select().from(boardColumns).where(eq(boardColumns.id, column.id));
    expect(after!.geminiConfig!.tools).toHaveLength(20);
    // Only the twentieth file was stored.
    expect(fs.readdirSync(path.join(t.mediaDir, owner.tenant.id), { recursive: true }).filter((name) => String(name).includes('.'))).toHaveLength(1);
  });
});
