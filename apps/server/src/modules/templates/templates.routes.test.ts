import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import {
  MEDIA_UPLOAD_INVALID_RESPONSE,
  ONE_PHONE_BUTTON,
  QUICK_REPLIES_TOGETHER,
  TEMPLATE_MEDIA_UNSUPPORTED,
  TEMPLATE_NAME_REQUIRED,
  TWO_URL_BUTTONS,
} from '@embudo/contracts/http/templates';
import { messageTemplates } from '../../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../../test/support/build-test-app.ts';
import { bearer, registerTenant } from '../../../test/support/factories.ts';
import { signInMember } from '../../../test/support/members.ts';
import { multipartFile, PNG_PIXEL as PNG, syncUntilReviewed as reviewed } from '../../../test/support/templates.ts';
import { listenOnRandomPort } from '../../../test/support/realtime-client.ts';
import { FAKE_REJECTION_REASON, type FakeGupshup } from '../../messaging-providers/sandbox/fake-gupshup.ts';
import { sandboxAppName } from '../tenants/index.ts';
import { applyProviderTemplateStatus, findApprovedTemplate } from './templates.service.ts';
import { PARTNER_CREDENTIALS_MISSING } from '../../messaging-providers/gupshup/gupshup-partner.client.ts';

type Owner = Awaited<ReturnType<typeof registerTenant>>;

let t: TestApp;
let fake: FakeGupshup;
beforeAll(async () => {
  t = await buildTestApp({ providerMode: 'sandbox' });
  await listenOnRandomPort(t.app);
  fake = t.app.sandboxPhone!;
  fake.templateReviewMs = 30;
});
afterAll(async () => t.close());

const call = (who: Owner, method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, payload?: unknown) =>
  t.app.inject({ method, url: `/t/${who.tenant.slug}/api${path}`, headers: bearer(who.token), payload: payload as Record<string, unknown> });

let counter = 0;
const template = (overrides: Record<string, unknown> = {}) => ({
  name: `aviso_${++counter}`,
  body_text: 'Hola {{1}}, tu pedido {{2}} está listo.',
  ...overrides,
});

const rowsOf = (tenantId: string) => t.database.db.select().from(messageTemplates).where(eq(messageTemplates.tenantId, tenantId));
const partnerCalls = (appId: string, method: string, suffix: string) =>
  fake.requests.filter((request) => request.method === method && request.path === `/partner/app/${appId}${suffix}`);

const syncUntilReviewed = (owner: Owner, id: string) => reviewed(t, owner, id);

const uploadMedia = (owner: Owner, fileName: string, data: Buffer, field = 'media') => {
  const form = multipartFile(field, fileName, data);
  return t.app.inject({
    method: 'POST',
    url: `/t/${owner.tenant.slug}/api/templates/media`,
    headers: { ...bearer(owner.token), ...form.headers },
    payload: form.body,
  });
};

const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]), Buffer.alloc(64)]);
const MP4 = Buffer.concat([
  Buffer.from([0x00, 0x00, 0x00, 0x18]),
  Buffer.from('ftypisom'),
  Buffer.from([0, 0, 2, 0]),
  Buffer.from('isomiso2'),
  Buffer.alloc(64),
]);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n');

describe('template rules (spec 02 §5, §9)', () => {
  const x = (n: number) => 'x'.repeat(n);
  const quick = (text: string) => ({ type: 'QUICK_REPLY', text });

  it.each([
    ['header text of 60', { header: { type: 'TEXT', text: x(60) } }],
    ['body of 1024', { body_text: x(1024) }],
    ['footer of 60', { footer: x(60) }],
    ['button text of 25', { buttons: [quick(x(25))] }],
    [
      '3 buttons of each type',
      {
        buttons: [
          quick('Sí'),
          { type: 'URL', text: 'Ver', url: 'https://tienda.example/p/{{1}}' },
          { type: 'PHONE_NUMBER', text: 'Llamar', phone_number: '+5215512345678' },
        ],
      },
    ],
    ['MARKETING in en_US', { category: 'MARKETING', language_code: 'en_US' }],
    ['AUTHENTICATION in pt_BR', { category: 'AUTHENTICATION', language_code: 'pt_BR' }],
    [
      'two URL buttons after the quick replies',
      { buttons: [quick('Sí'), { type: 'URL', text: 'A', url: 'https://a.example' }, { type: 'URL', text: 'B', url: 'https://b.example' }] },
    ],
    ['quick replies after the others', { buttons: [{ type: 'URL', text: 'A', url: 'https://a.example' }, quick('Sí'), quick('No')] }],
  ])('accepts %s', async (_label, overrides) => {
    const owner = await registerTenant(t.app);
    const response = await call(owner, 'POST', '/templates', template(overrides));
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().status).toBe('PENDING');
  });

  it.each([
    ['header text of 61', { header: { type: 'TEXT', text: x(61) } }, 'El encabezado no puede superar 60 caracteres.'],
    ['empty header text', { header: { type: 'TEXT', text: ' ' } }, 'El texto del encabezado es requerido.'],
    ['media header without sample', { header: { type: 'IMAGE' } }, 'Sube un archivo de ejemplo para el encabezado.'],
    ['unknown header type', { header: { type: 'AUDIO', text: 'x' } }, 'Tipo de encabezado inválido: usa TEXT, IMAGE, VIDEO o DOCUMENT.'],
    ['body of 1025', { body_text: x(1025) }, 'El cuerpo del mensaje no puede superar 1024 caracteres.'],
    ['missing body', { body_text: undefined }, 'El cuerpo del mensaje es requerido.'],
    ['blank body', { body_text: '   ' }, 'El cuerpo del mensaje es requerido.'],
    ['footer of 61', { footer: x(61) }, 'El pie de página no puede superar 60 caracteres.'],
    ['button text of 26', { buttons: [quick(x(26))] }, 'El texto del botón no puede superar 25 caracteres.'],
    ['4 buttons', { buttons: [quick('a'), quick('b'), quick('c'), quick('d')] }, 'Máximo 3 botones.'],
    [
      'two call buttons',
      {
        buttons: [
          { type: 'PHONE_NUMBER', text: 'A', phone_number: '+5215512345678' },
          { type: 'PHONE_NUMBER', text: 'B', phone_number: '+5215512345679' },
        ],
      },
      ONE_PHONE_BUTTON,
    ],
    ['three URL buttons', { buttons: ['a', 'b', 'c'].map((n) => ({ type: 'URL', text: n, url: `https://${n}.example` })) }, TWO_URL_BUTTONS],
    [
      'quick replies split by another button',
      { buttons: [quick('Sí'), { type: 'URL', text: 'Ver', url: 'https://a.example' }, quick('No')] },
      QUICK_REPLIES_TOGETHER,
    ],
    ['bad button type', { buttons: [{ type: 'COPY_CODE', text: 'x' }] }, 'Tipo de botón inválido: usa QUICK_REPLY, URL o PHONE_NUMBER.'],
    ['URL button without URL', { buttons: [{ type: 'URL', text: 'Ver' }] }, 'La URL del botón es requerida.'],
    ['URL button with a bad URL', { buttons: [{ type: 'URL', text: 'Ver', url: 'tienda' }] }, 'La URL del botón debe empezar con http:// o https://.'],
    [
      'phone button with a bad number',
      { buttons: [{ type: 'PHONE_NUMBER', text: 'Llamar', phone_number: 'abc' }] },
      'El teléfono del botón debe tener solo dígitos con código de país.',
    ],
    ['bad category', { category: 'PROMO' }, 'Categoría inválida: usa UTILITY, MARKETING o AUTHENTICATION.'],
    ['bad language', { language_code: 'fr' }, 'Idioma inválido: usa es, en_US o pt_BR.'],
    ['a name with nothing left after normalising', { name: 'ÑÑ !! --' }, TEMPLATE_NAME_REQUIRED],
    ['a missing name', { name: undefined }, TEMPLATE_NAME_REQUIRED],
  ])('refuses %s with 400, writes nothing and submits nothing', async (_label, overrides, message) => {
    const owner = await registerTenant(t.app);
    const response = await call(owner, 'POST', '/templates', template(overrides));
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(message);
    expect(await rowsOf(owner.tenant.id)).toHaveLength(0);
    expect(partnerCalls(sandboxAppName(owner.tenant), 'POST', '/templates')).toHaveLength(0);
  });

  it('normalises the name, applies the defaults and derives variables_schema from the body', async () => {
    const owner = await registerTenant(t.app);
    const response = await call(owner, 'POST', '/templates', {
      name: 'Promo Verano-2024_Ñ!',
      body_text: 'Hola {{1}}, cupón {{3}} y {{1}} otra vez; total {{2}}.',
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({
      name: 'promoverano2024_',
      category: 'UTILITY',
      language_code: 'es',
      header: null,
      footer: null,
      buttons: [],
      status: 'PENDING',
      rejection_reason: null,
      variables_schema: { 1: { type: 'text', label: 'Variable 1' }, 2: { type: 'text', label: 'Variable 2' }, 3: { type: 'text', label: 'Variable 3' } },
    });
  });

  it('refuses a second template with the same name and language with 409', async () => {
    const owner = await registerTenant(t.app);
    expect((await call(owner, 'POST', '/templates', template({ name: 'bienvenida' }))).statusCode).toBe(201);
    const again = await call(owner, 'POST', '/templates', template({ name: 'Bienvenida' }));
    expect(again.statusCode).toBe(409);
    expect((await call(owner, 'POST', '/templates', template({ name: 'bienvenida', language_code: 'en_US' }))).statusCode).toBe(201);
    expect(await rowsOf(owner.tenant.id)).toHaveLength(2);
  });
});

describe('review at the provider (partner API against the fake)', () => {
  it('submits every field of the contract, field for field, with an app token', async () => {
    const owner = await registerTenant(t.app);
    const appId = sandboxAppName(owner.tenant);
    const response = await call(owner, 'POST', '/templates', {
      name: 'pedido_enviado',
      category: 'MARKETING',
      language_code: 'pt_BR',
      header: { type: 'TEXT', text: 'Tu pedido' },
      body_text: 'Hola {{1}}, tu pedido {{2}} salió.',
      footer: 'Gracias',
      buttons: [
        { type: 'QUICK_REPLY', text: 'Quiero' },
        { type: 'URL', text: 'Ver pedido', url: 'https://tienda.example/p/{{1}}' },
        { type: 'PHONE_NUMBER', text: 'Llamar', phone_number: '+5511888880000' },
      ],
    });
    expect(response.statusCode).toBe(201);
    const [sent] = partnerCalls(appId, 'POST', '/templates');
    expect(sent!.form).toEqual({
      elementName: 'pedido_enviado',
      languageCode: 'pt_BR',
      category: 'MARKETING',
      templateType: 'TEXT',
      vertical: 'pedido_enviado',
      content: 'Hola {{1}}, tu pedido {{2}} salió.',
      example: 'Hola [Variable 1], tu pedido [Variable 2] salió.',
      header: 'Tu pedido',
      exampleHeader: 'Tu pedido',
      footer: 'Gracias',
      enableSample: 'false',
      allowTemplateCategoryChange: 'false',
      buttons: JSON.stringify([
        { type: 'QUICK_REPLY', text: 'Quiero' },
        { type: 'URL', text: 'Ver pedido', url: 'https://tienda.example/p/{{1}}', example: ['https://tienda.example/p/1'] },
        { type: 'PHONE_NUMBER', text: 'Llamar', phone_number: '+5511888880000' },
      ]),
    });
    // The app token from GET /partner/app/{appId}/token, obtained with the partner login's token.
    const tokenCall = fake.requests.find((request) => request.path === `/partner/app/${appId}/token`)!;
    const login = fake.requests.find((request) => request.path === '/partner/account/login')!;
    expect(login.form).toEqual({ email: expect.any(String), password: expect.any(String) });
    expect(tokenCall.headers.authorization).toMatch(/^fake-partner-jwt\./);
    expect(sent!.headers.authorization).toMatch(/^sk_/);
    expect(response.json().provider_template_id).toBe(fake.templatesOf(appId)[0]!.id);
  });

  it('is PENDING, then sync shows APPROVED; a body with "rechazar" ends REJECTED with its reason', async () => {
    const owner = await registerTenant(t.app);
    const good = (await call(owner, 'POST', '/templates', template({ name: 'buena' }))).json();
    const bad = (await call(owner, 'POST', '/templates', template({ name: 'mala', body_text: 'Por favor RECHAZAR esto {{1}}' }))).json();
    expect([good.status, bad.status]).toEqual(['PENDING', 'PENDING']);

    expect(await syncUntilReviewed(owner, good.id)).toMatchObject({ status: 'APPROVED', rejection_reason: null });
    expect(await syncUntilReviewed(owner, bad.id)).toMatchObject({ status: 'REJECTED', rejection_reason: FAKE_REJECTION_REASON });

    const approved = await call(owner, 'GET', '/templates?status=APPROVED');
    expect(approved.json().map((entry: { id: string }) => entry.id)).toEqual([good.id]);
    const all = await call(owner, 'GET', '/templates?status=');
    expect(all.json()).toHaveLength(2);
    // Spec 02 §7: ?status= is all or APPROVED, written as the client writes it.
    expect((await call(owner, 'GET', '/templates?status=all')).json()).toHaveLength(2);
    expect((await call(owner, 'GET', '/templates?status=approved')).json().map((entry: { id: string }) => entry.id)).toEqual([good.id]);
    const unknown = await call(owner, 'GET', '/templates?status=NOPE');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toMatch(/^Estado de plantilla inválido/);

    expect(await findApprovedTemplate(t.database.db, owner.tenant.id, bad.id)).toBeUndefined();
    expect(await findApprovedTemplate(t.database.db, owner.tenant.id, 'not-a-uuid')).toBeUndefined();
    expect(await findApprovedTemplate(t.database.db, owner.tenant.id, good.id)).toMatchObject({
      providerTemplateId: good.provider_template_id,
      category: 'UTILITY',
      bodyText: good.body_text,
      header: null,
    });
    const other = await registerTenant(t.app);
    expect(await findApprovedTemplate(t.database.db, other.tenant.id, good.id)).toBeUndefined();
  });

  it('re-submits on update: the old version is deleted at the provider and the new one reviewed again', async () => {
    const owner = await registerTenant(t.app);
    const appId = sandboxAppName(owner.tenant);
    const created = (await call(owner, 'POST', '/templates', template({ name: 'recordatorio' }))).json();
    await syncUntilReviewed(owner, created.id);

    const updated = await call(owner, 'PUT', `/templates/${created.id}`, template({ name: 'recordatorio', body_text: 'Nuevo texto {{1}}' }));
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({ status: 'PENDING', body_text: 'Nuevo texto {{1}}', variables_schema: { 1: { label: 'Variable 1' } } });
    expect(updated.json().provider_template_id).not.toBe(created.provider_template_id);
    expect(partnerCalls(appId, 'DELETE', `/template/recordatorio/${created.provider_template_id}`)).toHaveLength(1);
    expect(partnerCalls(appId, 'POST', '/templates').map((request) => request.form.content)).toEqual([created.body_text, 'Nuevo texto {{1}}']);
    expect(fake.templatesOf(appId).map((entry) => entry.id)).toEqual([updated.json().provider_template_id]);

    // A new name: the new one is created, then the old one removed.
    const renamed = await call(owner, 'PUT', `/templates/${created.id}`, template({ name: 'recordatorio_cita', body_text: 'Texto {{1}}' }));
    expect(renamed.statusCode).toBe(200);
    expect(fake.templatesOf(appId).map((entry) => entry.elementName)).toEqual(['recordatorio_cita']);
    expect(await syncUntilReviewed(owner, created.id)).toMatchObject({ status: 'APPROVED', name: 'recordatorio_cita' });
  });

  it('deletes at the provider too, then answers 204', async () => {
    const owner = await registerTenant(t.app);
    const appId = sandboxAppName(owner.tenant);
    const created = (await call(owner, 'POST', '/templates', template({ name: 'adios' }))).json();
    const response = await call(owner, 'DELETE', `/templates/${created.id}`);
    expect(response.statusCode).toBe(204);
    expect(partnerCalls(appId, 'DELETE', `/template/adios/${created.provider_template_id}`)).toHaveLength(1);
    expect(fake.templatesOf(appId)).toHaveLength(0);
    expect(await rowsOf(owner.tenant.id)).toHaveLength(0);
    expect((await call(owner, 'GET', `/templates/${created.id}`)).statusCode).toBe(404);
  });

  it("writes nothing and answers 502 with the provider's reason when the provider refuses a save", async () => {
    const owner = await registerTenant(t.app);
    fake.failNextPartnerCall('create', {
      status: 400,
      body: { status: 'error', message: 'Template Already exists with same namespace and elementName and languageCode' },
    });
    const response = await call(owner, 'POST', '/templates', template());
    expect(response.statusCode).toBe(502);
    expect(response.json().message).toBe('Gupshup no aceptó la plantilla: Template Already exists with same namespace and elementName and languageCode');
    expect(await rowsOf(owner.tenant.id)).toHaveLength(0);

    const created = (await call(owner, 'POST', '/templates', template())).json();
    fake.failNextPartnerCall('delete', { status: 500 });
    expect((await call(owner, 'DELETE', `/templates/${created.id}`)).statusCode).toBe(502);
    expect(await rowsOf(owner.tenant.id)).toHaveLength(1);
  });
});

describe("the provider's review by webhook", () => {
  it('moves the template, but news received before its last change (an approval, a sync) leaves it as it is', async () => {
    const owner = await registerTenant(t.app);
    const created = (await call(owner, 'POST', '/templates', template())).json();
    const [row] = await rowsOf(owner.tenant.id);
    const before = new Date(row!.updatedAt.getTime() - 1_000);
    const late = await applyProviderTemplateStatus(t.database.db, owner.tenant.id, {
      name: created.name,
      status: 'REJECTED',
      reason: 'tarde',
      receivedAt: before,
    });
    expect(late).toMatchObject({ status: row!.status, rejectionReason: row!.rejectionReason });
    const fresh = await applyProviderTemplateStatus(t.database.db, owner.tenant.id, {
      name: created.name,
      status: 'REJECTED',
      reason: 'a tiempo',
      receivedAt: new Date(),
    });
    expect(fresh).toMatchObject({ status: 'REJECTED', rejectionReason: 'a tiempo' });
  });
});

describe('POST /api/templates/media', () => {
  it.each([
    ['sample.png', PNG, 'IMAGE', 'image/png'],
    ['foto.jpg', JPEG, 'IMAGE', 'image/jpeg'],
    ['clip.mp4', MP4, 'VIDEO', 'video/mp4'],
    ['doc.pdf', PDF, 'DOCUMENT', 'application/pdf'],
  ])('uploads %s to the provider (checked by content) and answers its handleId', async (fileName, data, headerType, mime) => {
    const owner = await registerTenant(t.app);
    const appId = sandboxAppName(owner.tenant);
    const response = await uploadMedia(owner, fileName.replace(/\.\w+$/, '.bin'), data);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ handleId: expect.stringMatching(/^4::/), headerType, url: expect.stringMatching(/^\/media\//) });
    expect(partnerCalls(appId, 'POST', '/upload/media').at(-1)!.form.file_type).toBe(mime);
  });

  it('keeps our copy of the sample for previews and sends, served from our media URL', async () => {
    const owner = await registerTenant(t.app);
    const { url } = (await uploadMedia(owner, 'promo.png', PNG)).json();
    expect(url).toMatch(new RegExp(`^/media/${owner.tenant.id}/[0-9a-f-]{36}\\.png$`));
    const served = await t.app.inject({ method: 'GET', url });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(PNG)).toBe(true);
  });

  it('refuses a header file of another tenant', async () => {
    const owner = await registerTenant(t.app);
    const other = await registerTenant(t.app);
    const { handleId, url } = (await uploadMedia(other, 'promo.png', PNG)).json();
    const response = await call(owner, 'POST', '/templates', template({ header: { type: 'IMAGE', example_handle: handleId, media_url: url } }));
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('La URL del archivo del encabezado no es válida.');
    expect(await rowsOf(owner.tenant.id)).toHaveLength(0);
  });

  it('creates a media-header template with the handle as its sample', async () => {
    const owner = await registerTenant(t.app);
    const appId = sandboxAppName(owner.tenant);
    const { handleId, url } = (await uploadMedia(owner, 'promo.png', PNG)).json();
    const created = await call(owner, 'POST', '/templates', template({ header: { type: 'IMAGE', example_handle: handleId, media_url: url } }));
    expect(created.statusCode).toBe(201);
    expect(created.json().header).toEqual({ type: 'IMAGE', example_handle: handleId, media_url: url });
    expect(partnerCalls(appId, 'POST', '/templates').at(-1)!.form).toMatchObject({ templateType: 'IMAGE', exampleMedia: handleId, enableSample: 'true' });
    expect(partnerCalls(appId, 'POST', '/templates').at(-1)!.form).not.toHaveProperty('header');
  });

  it('refuses other content, a missing file and an answer without handleId', async () => {
    const owner = await registerTenant(t.app);
    const text = await uploadMedia(owner, 'image.png', Buffer.from('esto no es una imagen'));
    expect(text.statusCode).toBe(400);
    expect(text.json().message).toBe(TEMPLATE_MEDIA_UNSUPPORTED);
    const webp = await uploadMedia(
      owner,
      'x.webp',
      Buffer.concat([Buffer.from('RIFF'), Buffer.from([0x24, 0, 0, 0]), Buffer.from('WEBPVP8 '), Buffer.alloc(32)]),
    );
    expect(webp.statusCode).toBe(400);
    expect((await uploadMedia(owner, 'sample.png', PNG, 'other')).json().message).toBe('Falta el archivo (campo media).');
    expect((await call(owner, 'POST', '/templates/media', {})).statusCode).toBe(400);

    fake.failNextPartnerCall('upload', { status: 200, body: { status: 'success' } });
    const noHandle = await uploadMedia(owner, 'sample.png', PNG);
    expect(noHandle.statusCode).toBe(502);
    expect(noHandle.json().message).toBe(MEDIA_UPLOAD_INVALID_RESPONSE);
    fake.failNextPartnerCall('upload', { status: 400, body: { status: 'error', message: 'Unsupported file_type' } });
    expect((await uploadMedia(owner, 'sample.png', PNG)).json().message).toBe(MEDIA_UPLOAD_INVALID_RESPONSE);
  });
});

describe('access', () => {
  it.each(['agent', 'viewer'] as const)('lets the %s list (and read) templates but not create, edit, delete, sync or upload', async (role) => {
    const owner = await registerTenant(t.app);
    const created = (await call(owner, 'POST', '/templates', template())).json();
    const member = await signInMember(t, owner, role);
    expect((await call(member, 'GET', '/templates')).json()).toHaveLength(1);
    expect((await call(member, 'GET', `/templates/${created.id}`)).statusCode).toBe(200);
    for (const [method, path, payload] of [
      ['POST', '/templates', template()],
      ['PUT', `/templates/${created.id}`, template()],
      ['DELETE', `/templates/${created.id}`, undefined],
      ['POST', '/templates/sync', undefined],
    ] as const) {
      const response = await call(member, method, path, payload);
      expect(response.statusCode, `${method} ${path}`).toBe(403);
    }
    expect((await uploadMedia(member, 'sample.png', PNG)).statusCode).toBe(403);
    expect(await rowsOf(owner.tenant.id)).toHaveLength(1);
    expect(await rowsOf(owner.tenant.id)).toMatchObject([{ bodyText: created.body_text }]);
  });

  it("answers 404 to another tenant's template id, touching nothing", async () => {
    const a = await registerTenant(t.app);
    const b = await registerTenant(t.app);
    const theirs = (await call(b, 'POST', '/templates', template({ name: 'secreta' }))).json();
    for (const [method, payload] of [
      ['GET', undefined],
      ['PUT', template()],
      ['DELETE', undefined],
    ] as const) {
      const response = await call(a, method, `/templates/${theirs.id}`, payload);
      expect(response.statusCode, method).toBe(404);
      expect(response.json().message).toBe('Template not found.');
    }
    expect((await call(a, 'GET', '/templates')).json()).toEqual([]);
    const [row] = await t.database.db
      .select()
      .from(messageTemplates)
      .where(and(eq(messageTemplates.tenantId, b.tenant.id), eq(messageTemplates.id, theirs.id)));
    expect(row).toMatchObject({ name: 'secreta', bodyText: theirs.body_text });
  });
});

describe('live mode', () => {
  it('answers 400 without partner credentials and writes nothing', async () => {
    const live = await buildTestApp({ providerMode: 'live', gupshupPartnerUrl: 'http://127.0.0.1:9' });
    try {
      const owner = await registerTenant(live.app);
      const headers = bearer(owner.token);
      const notConfigured = await live.app.inject({ method: 'POST', url: '/api/templates', headers, payload: template() });
      expect(notConfigured.statusCode).toBe(400);
      await live.app.inject({ method: 'PUT', url: '/api/gupshup/settings', headers, payload: { appName: 'miapp', sourceNumber: '5215500000000' } });
      const response = await live.app.inject({ method: 'POST', url: '/api/templates', headers, payload: template() });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe(PARTNER_CREDENTIALS_MISSING);
      expect(await live.database.db.select().from(messageTemplates)).toHaveLength(0);
    } finally {
      await live.close();
    }
  });
});
