import { createHmac, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq } from 'drizzle-orm';
import { boardColumns, cards, contacts, funnels, messages, sandboxPhoneMessages, tenants } from '../../db/schema/index.ts';
import { bootstrapPlatformAdmin } from '../../src/modules/admin/index.ts';
import { isApiRoute, TENANT_PREFIX } from '../../src/platform/http/route-access.ts';
import { book, seedCatalog } from '../support/agenda-fixtures.ts';
import { buildTestApp, type TestApp } from '../support/build-test-app.ts';
import { excelFile } from '../support/excel.ts';
import { bearer, registerTenant } from '../support/factories.ts';
import { signedInMember } from '../support/members.ts';
import { listenOnRandomPort } from '../support/realtime-client.ts';
import { approvedTemplate, PNG_PIXEL } from '../support/templates.ts';

/**
 * The fuzz suite: every route of the app's own route table, called by an owner (or the platform operator) with
 * a deterministic set of hostile inputs — malformed JSON, wrong types, NUL bytes, lone surrogates, 1 MB strings,
 * 5,000-deep nesting, extreme numbers, empty bodies, garbage path params and queries — and the webhook with
 * malformed provider deliveries. Any 5xx fails. Bodies start from a valid seed per route, so each field's own
 * check is reached (a poisoned field with every other field valid), not just the first one.
 */

// The strings and numbers every field is tried with.
const NUL = 'a\u0000b';
const LONE_SURROGATE = 'a\uD800b';
const HUGE = 'x'.repeat(1_000_000); // 1 MB, just under the body limit, so the field's own limit answers
const DEEP_ARRAY = `${'['.repeat(5000)}${']'.repeat(5000)}`;
const DEEP_OBJECT = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;
const stringPoisons: unknown[] = [NUL, LONE_SURROGATE, HUGE, 12, null];
const numberPoisons: unknown[] = [1e20, -1, 'NaN', 2 ** 63, null];
const booleanPoisons: unknown[] = ['true', null];
/** The webhook stores what it can use, so each poisoned delivery is a real write: fewer, sharper poisons there. */
const webhookPoisons: unknown[] = [NUL, LONE_SURROGATE, 'w'.repeat(100_000), 1e20, null];
const rawBodies = ['{"broken":', '', '[]', '1e400', DEEP_ARRAY, DEEP_OBJECT];
const garbageIds = ['no-es-un-id', '%00', '%ED%A0%80', '1e20', encodeURIComponent(HUGE.slice(0, 5000))];
const garbageQueries = [
  'limit=1e20&cursor=%00&q=%ED%A0%80&start=NaN&end=-1&status=%00&date=9223372036854775808&appointments=x&professionalId=%00&serviceId=1e20',
  `q=${'x'.repeat(100_000)}&cursor=${'y'.repeat(100_000)}&start=${'1'.repeat(10_000)}`,
];

interface Fixtures {
  tenantId: string;
  ownerId: string;
  funnelId: string;
  columnId: string;
  cardId: string;
  messageId: string;
  templateId: string;
  approvedTemplateId: string;
  botId: string;
  professionalId: string;
  serviceId: string;
  appointmentId: string;
  timeBlockId: string;
  quickReplyId: string;
  teammateId: string;
  appName: string;
}

type Json = Record<string, unknown>;
interface Multipart {
  fields: Record<string, string>;
  file: { field: string; name: string; data: Buffer };
}
/** How a route is called with valid input: its path id and body, a multipart form, or no body at all. */
type Seed = { id?: (f: Fixtures) => string; body?: (f: Fixtures) => Json; form?: (f: Fixtures) => Promise<Multipart> | Multipart };

const inHours = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();

/** One line per API route that takes a body (POST, PUT, PATCH), keyed as the /api form. `{}` means no body. */
const seeds: Record<string, Seed> = {
  'POST /sandbox/api/send': { body: () => ({ phone: '5215599000009', name: 'Cliente', message: { kind: 'text', text: 'Hola' } }) },
  'POST /sandbox/api/change': { body: () => ({ phone: '5215599999999', change: { kind: 'reaction', messageId: 'wamid.fuzz', emoji: '👍' } }) },
  'POST /api/auth/login': { body: () => ({ email: 'nadie@fuzz.test', password: 'Clave1234', tenantSlug: 'no-existe' }) },
  'POST /api/auth/register': {
    body: () => ({
      companyName: 'Fuzz',
      companySlug: `fuzz-${randomUUID().slice(0, 8)}`,
      userName: 'Fuzz',
      userEmail: `f-${randomUUID().slice(0, 8)}@fuzz.test`,
      userPassword: 'Clave1234',
      timezone: 'America/Bogota',
    }),
  },
  'POST /api/auth/logout': {},
  'PUT /api/auth/change-password': { body: () => ({ newPassword: 'Fuzz12345' }) },
  'POST /api/auth/admin/login': { body: () => ({ email: 'nadie@fuzz.test', password: 'Clave1234' }) },
  'POST /api/admin/logout': {},
  'PUT /api/admin/tenants/:id/plan': { id: (f) => f.tenantId, body: () => ({ subscription_plan: 'enterprise' }) },
  'PUT /api/admin/tenants/:id/send-rate': { id: (f) => f.tenantId, body: () => ({ messagesPerSecond: 80 }) },
  'PUT /api/admin/users/:id/status': { id: (f) => f.teammateId, body: () => ({ is_active: true }) },
  'POST /api/admin/users/:id/reset-password': {},
  'PUT /api/admin/settings/pricing': {
    body: () => ({ price_per_sent_message: 0.01, price_per_received_message: '0.02', price_template_marketing: 0, price_template_utility: null }),
  },
  'PUT /api/admin/settings/gupshup': { body: () => ({ apiKey: 'clave', partnerEmail: 'socio@fuzz.test', partnerPassword: 'secreto' }) },
  'PUT /api/admin/templates/:id/status': { id: (f) => f.templateId, body: () => ({ status: 'APPROVED' }) },
  'POST /api/users/invite': {
    body: () => ({ name: 'Invitada', email: `i-${randomUUID().slice(0, 8)}@fuzz.test`, role: 'agent', is_active: true, funnelIds: [] }),
  },
  'POST /api/users/:id/reset-password': {},
  // Reintentar (issue 17) takes no body: an id that is no failed job answers 404.
  'POST /api/whatsapp/activity/jobs/:id/retry': {},
  'POST /api/admin/tenants/:id/whatsapp-activity/jobs/:jobId/retry': {},
  'PUT /api/users/:id': {
    id: (f) => f.teammateId,
    body: (f) => ({ name: 'Compañera', email: 'ignorado@fuzz.test', role: 'agent', is_active: true, funnelIds: [f.funnelId] }),
  },
  'POST /api/funnels': { body: () => ({ name: 'Embudo' }) },
  'PUT /api/funnels/:id': { id: (f) => f.funnelId, body: () => ({ name: 'Ventas' }) },
  'POST /api/columns': { body: (f) => ({ funnelId: f.funnelId, title: 'Columna' }) },
  'PUT /api/columns/:id': {
    id: (f) => f.columnId,
    body: (f) => ({
      title: 'Columna',
      color: 'blue',
      assistant_bot_id: f.botId,
      gemini_config: {
        isEnabled: false,
        systemPrompt: 'Sé amable',
        tools: [{ type: 'file_upload', id: 't1', fileName: 'precios.csv', filePath: `/media/${f.tenantId}/${randomUUID()}.csv`, purpose: 'Precios' }],
      },
    }),
  },
  'POST /api/columns/:id/toggle-cards-ai': { id: (f) => f.columnId, body: () => ({ enabled: false }) },
  'POST /api/quick-replies': { body: (f) => ({ columnId: f.columnId, title: 'Saludo', text: 'Hola' }) },
  'PUT /api/quick-replies/:id': { id: (f) => f.quickReplyId, body: () => ({ title: 'Saludo', text: 'Hola' }) },
  'PUT /api/columns/:id/assigned-templates': { id: (f) => f.columnId, body: (f) => ({ templateIds: [f.templateId] }) },
  'POST /api/columns/:id/tools/upload': {
    id: (f) => f.columnId,
    form: () => ({ fields: {}, file: { field: 'tool_file', name: 'precios.csv', data: Buffer.from('producto,precio\nCorte,25\n') } }),
  },
  'POST /api/card/move': { body: (f) => ({ cardId: f.cardId, targetColumnId: f.columnId }) },
  'PUT /api/cards/:id': { id: (f) => f.cardId, body: () => ({ title: 'Cliente' }) },
  'PUT /api/cards/:id/toggle-ai': { id: (f) => f.cardId, body: () => ({ enabled: false }) },
  'POST /api/cards/:id/archive': {},
  'POST /api/cards/:id/mark-read': {},
  'POST /api/messages/:id/reaction': { id: (f) => f.messageId, body: () => ({ emoji: '👍' }) },
  'POST /api/message': { body: (f) => ({ cardId: f.cardId, text: 'Hola', tempId: 'tmp-1' }) },
  'POST /api/message/media': {
    form: (f) => ({ fields: { cardId: f.cardId, caption: 'Foto', tempId: 'tmp-2' }, file: { field: 'media', name: 'foto.png', data: PNG_PIXEL } }),
  },
  'POST /api/message/template': { body: (f) => ({ cardId: f.cardId, templateId: f.approvedTemplateId, variables: { 1: 'Lucía' }, tempId: 'tmp-3' }) },
  'POST /api/initiate-conversation': {
    body: (f) => ({ templateId: f.approvedTemplateId, phoneNumber: '5215599000001', variables: ['Lucía'], columnId: f.columnId }),
  },
  'POST /api/message/schedule': { body: (f) => ({ cardId: f.cardId, scheduledFor: inHours(2), text: 'Recordatorio' }) },
  'POST /api/note': { body: (f) => ({ cardId: f.cardId, text: 'Nota' }) },
  'POST /api/ai/suggest-reply': { body: (f) => ({ cardId: f.cardId }) },
  'POST /api/ai/summarize': { body: (f) => ({ cardId: f.cardId }) },
  'PUT /api/gupshup/settings': { body: (f) => ({ appName: f.appName, sourceNumber: '5215500000000' }) },
  'PUT /api/whatsapp/settings': { body: (f) => ({ provider: 'gupshup', appName: f.appName, sourceNumber: '5215500000000' }) },
  'POST /api/whatsapp/settings/test': {
    body: () => ({ provider: 'meta', phoneNumberId: '109876543210987', wabaId: '204567890123456', accessToken: 'EAAG-fuzz', appSecret: 'secreto' }),
  },
  'PUT /api/whatsapp/opt-out-keywords': { body: () => ({ keywords: ['BAJA', 'ALTO'] }) },
  'PUT /api/bot-settings': { body: (f) => ({ enabled: false, message: 'Hola', triggerColumnId: null, menuColumnIds: [f.columnId] }) },
  'POST /api/templates': {
    body: () => ({
      name: `fuzz_${randomUUID().slice(0, 8)}`,
      category: 'UTILITY',
      language_code: 'es',
      header: { type: 'TEXT', text: 'Hola' },
      body_text: 'Hola {{1}}',
      footer: 'Pie',
      buttons: [
        { type: 'QUICK_REPLY', text: 'Sí' },
        { type: 'URL', text: 'Web', url: 'https://fuzz.test' },
        { type: 'PHONE_NUMBER', text: 'Llamar', phone_number: '+5215500000000' },
      ],
    }),
  },
  'PUT /api/templates/:id': {
    id: (f) => f.templateId,
    body: () => ({ name: `fuzz_${randomUUID().slice(0, 8)}`, header: { type: 'IMAGE', example_handle: 'h1', media_url: '/media/x/y.png' }, body_text: 'Hola' }),
  },
  'POST /api/templates/sync': {},
  'POST /api/templates/media': { form: () => ({ fields: {}, file: { field: 'media', name: 'cabecera.png', data: PNG_PIXEL } }) },
  'POST /api/bots': { body: () => ({ name: 'Bot', type: 'scheduling', avatar_icon: 'scheduling' }) },
  'PUT /api/bots/:id': {
    id: (f) => f.botId,
    body: (f) => ({
      name: 'Bot',
      config: {
        nodes: [
          { id: 'trigger-1', type: 'trigger', position: { x: 0, y: 0 }, data: { label: 'Inicio', triggerType: 'on_column_entry', columnId: f.columnId } },
          { id: 'timer-1', type: 'timer', position: { x: 10.5, y: -20 }, data: { label: 'Espera', duration: 5, unit: 'minutes' } },
          { id: 'msg-1', type: 'sendMessage', position: { x: 100, y: 100 }, data: { label: 'Mensaje', text: 'Hola' } },
        ],
        edges: [
          { id: 'e1', source: 'trigger-1', target: 'timer-1', sourceHandle: null, targetHandle: null },
          { id: 'e2', source: 'timer-1', target: 'msg-1' },
        ],
      },
    }),
  },
  'POST /api/bots/:id/simulate': { id: (f) => f.botId, body: () => ({ message: 'Hola', sessionId: null, botConfig: { nodes: [], edges: [] } }) },
  'POST /api/funnels/:id/batches': {
    id: (f) => f.funnelId,
    form: async (f) => ({
      fields: { templateId: f.approvedTemplateId, targetColumnId: f.columnId, phoneColumn: 'telefono', variableColumns: '{"1":"Nombre"}' },
      file: {
        field: 'file',
        name: 'clientes.xlsx',
        data: await excelFile([
          ['telefono', 'Nombre'],
          ['5215599000002', 'Lucía'],
        ]),
      },
    }),
  },
  'PUT /api/agenda/settings': { body: () => ({ timezone: 'America/Bogota' }) },
  'POST /api/agenda/professionals': {
    body: (f) => ({
      name: 'Marta',
      color: 'green',
      serviceIds: [f.serviceId],
      availability: { monday: { startTime: '09:00', endTime: '17:00', enabled: true } },
    }),
  },
  'PUT /api/agenda/professionals/:id': { id: (f) => f.professionalId, body: (f) => ({ name: 'Lucía', color: 'blue', serviceIds: [f.serviceId] }) },
  'POST /api/agenda/services': { body: () => ({ name: 'Manicura', duration: 45, cost: '18.50' }) },
  'PUT /api/agenda/services/:id': { id: (f) => f.serviceId, body: () => ({ name: 'Corte', duration: 60, cost: 30 }) },
  'POST /api/agenda/appointments': {
    body: (f) => ({
      clientName: 'Lucía',
      clientWhatsapp: '+52 155 0000',
      professionalId: f.professionalId,
      serviceId: f.serviceId,
      startTime: inHours(24 * 30),
      endTime: inHours(24 * 30 + 1),
      cost: 20,
    }),
  },
  'PUT /api/agenda/appointments/:id': { id: (f) => f.appointmentId, body: () => ({ clientName: 'Lucía Pérez', cost: 25 }) },
  'POST /api/agenda/time-blocks': {
    body: (f) => ({ professionalId: f.professionalId, startTime: inHours(24 * 40), endTime: inHours(24 * 40 + 1), isAvailable: false, reason: 'Médico' }),
  },
  'PUT /api/agenda/time-blocks/:id': { id: (f) => f.timeBlockId, body: () => ({ reason: 'Formación', isAvailable: false }) },
};

/** Every leaf of a seed body with the value it has: where the poisons go. */
function leaves(value: unknown, path: Array<string | number> = []): Array<{ path: Array<string | number>; value: unknown }> {
  if (Array.isArray(value)) return value.flatMap((item, index) => leaves(item, [...path, index]));
  if (value !== null && typeof value === 'object') return Object.entries(value).flatMap(([key, inner]) => leaves(inner, [...path, key]));
  return [{ path, value }];
}

function withValue(body: Json, path: Array<string | number>, value: unknown): Json {
  const copy = structuredClone(body);
  let target: Record<string | number, unknown> = copy;
  for (const key of path.slice(0, -1)) target = target[key] as Record<string | number, unknown>;
  target[path.at(-1)!] = value;
  return copy;
}

const poisonsFor = (value: unknown) => (typeof value === 'number' ? numberPoisons : typeof value === 'boolean' ? booleanPoisons : stringPoisons);

/** Text fields and one file as a browser sends them, with the file name given as raw bytes (so NUL and lone surrogates reach the parser). */
function multipartBody(form: Multipart, fileName: Uint8Array = Buffer.from(form.file.name)) {
  const boundary = `----fuzz${randomUUID()}`;
  const parts: Uint8Array[] = Object.entries(form.fields).map(([name, value]) =>
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
  );
  parts.push(
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${form.file.field}"; filename="`),
    fileName,
    Buffer.from('"\r\nContent-Type: application/octet-stream\r\n\r\n'),
    form.file.data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

const fileNamePoisons = [
  Buffer.from('fo\u0000to.png'),
  Buffer.from([0x66, 0xed, 0xa0, 0x80, 0x2e, 0x70, 0x6e, 0x67]),
  Buffer.from(`${'n'.repeat(50_000)}.png`),
  Buffer.from(''),
];

let t: TestApp;
let f: Fixtures;
const OWNER_PASSWORD = 'Clave1234';
const ADMIN = { email: 'fuzz@embudo.test', password: 'Fuzz12345' };
let owner: { email: string; slug: string; token: string };
let adminToken: string;

beforeAll(async () => {
  t = await buildTestApp({ providerMode: 'sandbox' });
  await listenOnRandomPort(t.app);
  t.app.sandboxPhone!.templateReviewMs = 20;
  const db = t.database.db;
  const a = await registerTenant(t.app, { userPassword: OWNER_PASSWORD });
  await db.update(tenants).set({ subscriptionPlan: 'enterprise' }).where(eq(tenants.id, a.tenant.id));
  owner = { email: a.user.email, slug: a.tenant.slug, token: a.token };
  await bootstrapPlatformAdmin(db, ADMIN);
  adminToken = await signIn('admin');

  const [funnel] = await db.select().from(funnels).where(eq(funnels.tenantId, a.tenant.id)).orderBy(asc(funnels.position));
  const [column] = await db
    .select()
    .from(boardColumns)
    .where(and(eq(boardColumns.tenantId, a.tenant.id), eq(boardColumns.funnelId, funnel!.id)))
    .orderBy(asc(boardColumns.position));
  const [contact] = await db.insert(contacts).values({ tenantId: a.tenant.id, phone: '5215599999999', name: 'Cliente' }).returning();
  const [card] = await db
    .insert(cards)
    .values({
      tenantId: a.tenant.id,
      funnelId: funnel!.id,
      columnId: column!.id,
      contactId: contact!.id,
      title: 'Cliente',
      phone: contact!.phone,
      unreadCount: 1,
      contactLastMessageAt: new Date(),
    })
    .returning();
  const [message] = await db
    .insert(messages)
    .values({ tenantId: a.tenant.id, cardId: card!.id, sender: 'contact', text: 'Hola', type: 'text', providerMessageId: 'wamid.fuzz', ack: 3 })
    .returning();
  const post = async (url: string, payload: Json) => {
    const response = await t.app.inject({ method: 'POST', url, headers: bearer(owner.token), payload });
    if (response.statusCode !== 201) throw new Error(`fixture ${url}: ${response.statusCode} ${response.body}`);
    return response.json().id as string;
  };
  const { professional, service } = await seedCatalog(t.app, a);
  const appointment = await book(t.app, a, { professionalId: professional.id, serviceId: service.id, startTime: inHours(24), endTime: inHours(25) });
  // The fixture message on the sandbox phone too, so a change's seed reaches the fake and the webhook.
  await db.insert(sandboxPhoneMessages).values({
    messageId: 'wamid.fuzz',
    appName: (await t.app.inject({ method: 'GET', url: '/sandbox/api/app', headers: bearer(a.token) })).json().appName as string,
    conversation: contact!.phone,
    direction: 'from_customer',
    type: 'text',
    body: { text: 'Hola' },
    status: 'delivered',
  });
  f = {
    tenantId: a.tenant.id,
    ownerId: a.user.id,
    funnelId: funnel!.id,
    columnId: column!.id,
    cardId: card!.id,
    messageId: message!.id,
    templateId: await post('/api/templates', { name: `fixture_${randomUUID().slice(0, 8)}`, body_text: 'Hola {{1}}' }),
    approvedTemplateId: (await approvedTemplate(t, a, { name: `aprobada_${randomUUID().slice(0, 8)}`, body_text: 'Hola {{1}}' })).id,
    botId: await post('/api/bots', { name: 'Fixture' }),
    professionalId: professional.id,
    serviceId: service.id,
    appointmentId: appointment.id,
    timeBlockId: await post('/api/agenda/time-blocks', { professionalId: professional.id, startTime: inHours(48), endTime: inHours(49) }),
    quickReplyId: await post('/api/quick-replies', { columnId: column!.id, title: 'Horario', text: 'De 9 a 17' }),
    teammateId: (await signedInMember(t.app, db, a.tenant, 'agent', [funnel!.id])).user.id,
    appName: (await t.app.inject({ method: 'GET', url: '/api/gupshup/settings', headers: bearer(a.token) })).json().appName as string,
  };
}, 600_000);
afterAll(async () => t?.close());

async function signIn(kind: 'tenant' | 'admin'): Promise<string> {
  const response =
    kind === 'admin'
      ? await t.app.inject({ method: 'POST', url: '/api/auth/admin/login', remoteAddress: '10.77.0.2', payload: ADMIN })
      : await t.app.inject({
          method: 'POST',
          url: '/api/auth/login',
          remoteAddress: '10.77.0.1',
          payload: { email: owner.email, password: OWNER_PASSWORD, tenantSlug: owner.slug },
        });
  // A poisoned change-password that went through would show up here: the fuzz must never change the password.
  if (response.statusCode !== 200)
    throw new Error(`${kind} sign-in failed (was a password changed by a poisoned call?): ${response.statusCode} ${response.body}`);
  return response.json().token as string;
}

interface Attempt {
  method: string;
  url: string;
  body?: string | Buffer;
  contentType?: string;
  admin: boolean;
  label: string;
}

const failures: string[] = [];
let attempts = 0;

/** Sends one hostile request; a 401 (a logout among the cases ended the session) is retried once with a new session. */
async function attempt({ method, url, body, contentType, admin, label }: Attempt) {
  attempts += 1;
  const send = () =>
    t.app.inject({
      method: method as 'POST',
      url,
      body,
      headers: { ...bearer(admin ? adminToken : owner.token), ...(contentType ? { 'content-type': contentType } : {}) },
    });
  let response = await send();
  if (response.statusCode === 401 && isApiRoute(url.replace(/^\/t\/[^/]+/, TENANT_PREFIX))) {
    if (admin) adminToken = await signIn('admin');
    else owner.token = await signIn('tenant');
    response = await send();
  }
  if (response.statusCode >= 500) failures.push(`${label}: ${response.statusCode} ${response.body.slice(0, 200)}`);
}

const fillPath = (url: string, id: string) => url.replace(/:(?!tenantSlug)[A-Za-z]+/g, id);
const keyOf = (method: string, url: string) => `${method} ${url}`;

describe('fuzz', () => {
  const apiRoutes = () => t.app.routeTable.filter((route) => isApiRoute(route.url) && !route.url.startsWith(TENANT_PREFIX));

  it('has a seed for every API route that takes a body', () => {
    const withBody = apiRoutes()
      .filter((route) => ['POST', 'PUT', 'PATCH'].includes(route.method))
      .map((route) => keyOf(route.method, route.url));
    expect(
      withBody.filter((key) => !(key in seeds)),
      'routes without a seed in the fuzz suite',
    ).toEqual([]);
    expect(
      Object.keys(seeds).filter((key) => !withBody.includes(key)),
      'seeds for routes that do not exist',
    ).toEqual([]);
  });

  it('never answers 5xx to hostile bodies, fields, path params or queries on any API route', async () => {
    const started = Date.now();
    for (const route of apiRoutes()) {
      const key = keyOf(route.method, route.url);
      const admin = route.access === 'admin';
      const seed = seeds[key];
      const hasParams = /:(?!tenantSlug)[A-Za-z]+/.test(route.url);

      for (const id of hasParams ? garbageIds : []) {
        await attempt({ method: route.method, url: fillPath(route.url, id), admin, label: `${key} with id ${id.slice(0, 30)}` });
      }
      if (route.method === 'GET' || route.method === 'DELETE') {
        for (const query of garbageQueries) {
          await attempt({
            method: route.method,
            url: `${fillPath(route.url, randomUUID())}?${query}`,
            admin,
            label: `${key} with query ${query.slice(0, 60)}`,
          });
        }
        continue;
      }
      // Body-less calls (logout, reset-password…) go to an id that does not exist, so no fixture is reset.
      const url = fillPath(route.url, seed?.id && (seed.body || seed.form) ? seed.id(f) : randomUUID());
      for (const raw of rawBodies) {
        await attempt({ method: route.method, url, body: raw, contentType: 'application/json', admin, label: `${key} with body ${raw.slice(0, 30)}` });
      }
      if (seed?.body) {
        const base = seed.body(f);
        const cases: Array<[string, Json]> = [['the whole body as an array', [base] as unknown as Json]];
        for (const leaf of leaves(base)) {
          for (const poison of poisonsFor(leaf.value))
            cases.push([`${leaf.path.join('.')} = ${JSON.stringify(poison)?.slice(0, 30)}`, withValue(base, leaf.path, poison)]);
        }
        for (const field of Object.keys(base)) cases.push([`${field} left out`, Object.fromEntries(Object.entries(base).filter(([name]) => name !== field))]);
        for (const [what, body] of cases) {
          await attempt({ method: route.method, url, body: JSON.stringify(body), contentType: 'application/json', admin, label: `${key} with ${what}` });
        }
      }
      if (seed?.form) {
        const form = await seed.form(f);
        for (const name of fileNamePoisons) {
          const multipart = multipartBody(form, name);
          await attempt({
            method: route.method,
            url,
            body: multipart.body,
            contentType: multipart.contentType,
            admin,
            label: `${key} with file name ${name.subarray(0, 20).toString('hex')}`,
          });
        }
        for (const field of Object.keys(form.fields)) {
          for (const poison of [NUL, LONE_SURROGATE, 'x'.repeat(100_000)]) {
            const multipart = multipartBody({ ...form, fields: { ...form.fields, [field]: poison } });
            await attempt({
              method: route.method,
              url,
              body: multipart.body,
              contentType: multipart.contentType,
              admin,
              label: `${key} with ${field} = ${poison.slice(0, 10)}`,
            });
          }
        }
        await attempt({ method: route.method, url, body: '{"a":1}', contentType: 'application/json', admin, label: `${key} as JSON` });
        await attempt({
          method: route.method,
          url,
          body: 'garbage',
          contentType: 'multipart/form-data; boundary=nada',
          admin,
          label: `${key} with a broken multipart body`,
        });
      }
    }
    // The slug in /t/{slug}/api is a path param too.
    for (const slug of ['%00', '%ED%A0%80', encodeURIComponent(HUGE.slice(0, 5000)), 'NaN']) {
      await attempt({ method: 'GET', url: `/t/${slug}/api/auth/me`, admin: false, label: `tenant slug ${slug.slice(0, 20)}` });
    }
    for (const slug of ['%00', '%ED%A0%80', encodeURIComponent(HUGE.slice(0, 5000))]) {
      await attempt({ method: 'GET', url: `/api/tenants/check-slug/${slug}`, admin: false, label: `check-slug ${slug.slice(0, 20)}` });
    }
    expect(failures).toEqual([]);
    expect(attempts).toBeGreaterThan(1000);
    t.app.log.info({ attempts, ms: Date.now() - started }, 'fuzz: API routes');
  }, 600_000);

  it('never answers 5xx to malformed provider deliveries on the webhook, nor to garbage media paths', async () => {
    failures.length = 0;
    const settings = await t.app.inject({ method: 'GET', url: '/api/gupshup/settings', headers: bearer(owner.token) });
    const path = new URL(settings.json().webhookUrl as string).pathname;
    const deliver = (body: string, label: string, url = path, contentType = 'application/json') =>
      attempt({ method: 'POST', url, body, contentType, admin: false, label: `webhook ${label}` });

    let sequence = 0;
    const message = (type: string, inner: Json): Json => ({
      app: f.appName,
      timestamp: 1_900_000_000_000,
      version: 2,
      type: 'message',
      payload: {
        id: `wamid.fuzz${(sequence += 1)}`,
        source: '5215588880000',
        type,
        payload: inner,
        sender: { phone: '5215588880000', name: 'Ana' },
        context: { id: 'wamid.q', gsId: 'gs-q' },
      },
    });
    const seedsByKind: Json[] = [
      message('text', { text: 'Hola' }),
      message('image', { url: 'https://filemanager.gupshup.io/x.png', contentType: 'image/png', caption: 'Foto' }),
      message('file', { url: 'https://filemanager.gupshup.io/x.pdf', name: 'boleto.pdf', contentType: 'application/pdf' }),
      message('location', { latitude: '19.14', longitude: '72.85', name: 'Tienda', address: 'Calle 1' }),
      message('button_reply', { title: 'Sí', id: 'qr-1', reply: 'Sí 1', postbackText: 'yes' }),
      message('contact', { contacts: [{ name: { formatted_name: 'Ana' }, phones: [{ phone: '5215500000000' }] }] }),
      message('reaction', { emoji: '👍' }),
      {
        app: f.appName,
        timestamp: 1_900_000_000_000,
        version: 2,
        type: 'message-event',
        payload: { id: 'wamid.1', gsId: 'gs-1', type: 'read', destination: '52155', payload: { ts: 1_900_000_000 } },
      },
      {
        app: f.appName,
        timestamp: 1_900_000_000_000,
        version: 2,
        type: 'message-event',
        payload: { id: 'gs-2', type: 'failed', destination: '52155', payload: { code: 1002, reason: 'No existe' } },
      },
      { app: f.appName, timestamp: 1_900_000_000_000, version: 2, type: 'user-event', payload: { phone: '52155', type: 'opted-in' } },
    ];
    for (const raw of rawBodies) await deliver(raw, `body ${raw.slice(0, 20)}`);
    await deliver('texto', 'as text/plain', path, 'text/plain');
    await deliver('a=1&b=2', 'as a form', path, 'application/x-www-form-urlencoded');
    await deliver(`{"type":"message","payload":{"id":"wamid.deep","source":"5215588880000","type":"reaction","payload":${DEEP_ARRAY}}}`, 'deep unknown type');
    for (const base of seedsByKind) {
      // The idempotency key changes per call, so each poisoned delivery is a new message, not a duplicate.
      for (const leaf of leaves(base)) {
        for (const poison of webhookPoisons) {
          const body = withValue(base, leaf.path, poison);
          if (leaf.path.join('.') !== 'payload.id' && isRecord(body.payload)) body.payload.id = `wamid.fuzz${(sequence += 1)}`;
          await deliver(JSON.stringify(body), `${String(base.type)} ${leaf.path.join('.')} = ${JSON.stringify(poison)?.slice(0, 30)}`);
        }
      }
    }
    for (const id of garbageIds) {
      await deliver('{}', `tenant id ${id.slice(0, 20)}`, `/webhooks/gupshup/${id}/secreto`);
      await deliver('{}', `secret ${id.slice(0, 20)}`, path.replace(/[^/]+$/, id));
      await attempt({ method: 'GET', url: `/media/${id}/${id}`, admin: false, label: `media ${id.slice(0, 20)}` });
      await attempt({ method: 'GET', url: `/media/${f.tenantId}/${id}`, admin: false, label: `media name ${id.slice(0, 20)}` });
    }
    expect(failures).toEqual([]);
  }, 600_000);
});

describe('fuzz: Meta webhooks', () => {
  it('never answers 5xx to signed but malformed Meta deliveries, nor to garbage handshakes', async () => {
    failures.length = 0;
    const company = await registerTenant(t.app);
    const meta = { provider: 'meta', phoneNumberId: '109876500000001', wabaId: '204567800000001', accessToken: 'EAAG-fuzz', appSecret: 'secreto-fuzz' };
    const saved = await t.app.inject({ method: 'PUT', url: '/api/whatsapp/settings', headers: bearer(company.token), payload: meta });
    expect(saved.statusCode).toBe(200);
    const path = new URL(saved.json().metaWebhookUrl as string).pathname;
    const deliver = async (raw: string, label: string) => {
      attempts += 1;
      const signature = `sha256=${createHmac('sha256', meta.appSecret).update(raw).digest('hex')}`;
      const response = await t.app.inject({
        method: 'POST',
        url: path,
        payload: raw,
        headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature },
      });
      if (response.statusCode >= 500) failures.push(`meta webhook ${label}: ${response.statusCode} ${response.body.slice(0, 200)}`);
    };
    let sequence = 0;
    const change = (field: string, value: Json): Json => ({
      object: 'whatsapp_business_account',
      entry: [{ id: meta.wabaId, time: 1_900_000_000, changes: [{ field, value }] }],
    });
    const message = (type: string, inner: Json): Json =>
      change('messages', {
        messaging_product: 'whatsapp',
        metadata: { display_phone_number: '5215500000000', phone_number_id: meta.phoneNumberId },
        contacts: [{ profile: { name: 'Ana' }, wa_id: '5215588880000' }],
        messages: [{ from: '5215588880000', id: `wamid.metafuzz${(sequence += 1)}`, timestamp: '1900000000', type, [type]: inner, context: { id: 'wamid.q' } }],
      });
    const seedsByKind: Json[] = [
      message('text', { body: 'Hola' }),
      message('image', { id: '1013859600285441', mime_type: 'image/png', caption: 'Foto' }),
      message('document', { id: '1013859600285442', mime_type: 'application/pdf', filename: 'boleto.pdf' }),
      message('location', { latitude: 19.14, longitude: 72.85, name: 'Tienda' }),
      message('interactive', { type: 'button_reply', button_reply: { id: '1', title: 'Ventas' } }),
      message('button', { payload: 'ok', text: 'Sí' }),
      change('messages', {
        metadata: { phone_number_id: meta.phoneNumberId },
        statuses: [{ id: 'wamid.out', status: 'failed', timestamp: '1900000000', errors: [{ code: 131026, title: 'x', error_data: { details: 'y' } }] }],
      }),
      change('message_template_status_update', {
        event: 'APPROVED',
        message_template_id: 1,
        message_template_name: 'x',
        message_template_language: 'es',
        reason: 'NONE',
      }),
    ];
    for (const raw of rawBodies) await deliver(raw, `body ${raw.slice(0, 20)}`);
    for (const base of seedsByKind) {
      for (const leaf of leaves(base)) {
        for (const poison of webhookPoisons) {
          const body = withValue(base, leaf.path, poison);
          await deliver(JSON.stringify(body), `${leaf.path.join('.')} = ${JSON.stringify(poison)?.slice(0, 30)}`);
        }
      }
    }
    for (const query of [...garbageQueries, 'hub.mode=subscribe&hub.verify_token=%00&hub.challenge=%ED%A0%80', `hub.challenge=${HUGE.slice(0, 5000)}`]) {
      attempts += 1;
      const response = await t.app.inject({ method: 'GET', url: `${path}?${query}` });
      if (response.statusCode >= 500) failures.push(`meta handshake ${query.slice(0, 40)}: ${response.statusCode}`);
    }
    expect(failures).toEqual([]);
  }, 600_000);
});

const isRecord = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
