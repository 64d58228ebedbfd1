import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq } from 'drizzle-orm';
import { batches, boardColumns, cards, contacts, funnels, jobs, messages, sandboxPhoneMessages, tenants } from '../../db/schema/index.ts';
import { bootstrapPlatformAdmin } from '../../src/modules/admin/index.ts';
import { isApiRoute, TENANT_PREFIX } from '../../src/platform/http/route-access.ts';
import { book, seedCatalog } from '../support/agenda-fixtures.ts';
import { buildTestApp, type TestApp } from '../support/build-test-app.ts';
import { bearer, registerTenant } from '../support/factories.ts';
import { MEMBER_PASSWORD, signedInMember } from '../support/members.ts';
import { listenOnRandomPort } from '../support/realtime-client.ts';
import { approvedTemplate } from '../support/templates.ts';
import { excelFile } from '../support/excel.ts';

/**
 * The role matrix, driven by the app's own route table: every API route must have a line below,
 * and each of owner, admin, agent with the funnel, agent without it, viewer and another company's
 * owner must get the expected answer. A route added without a line fails the first test.
 *
 * Fixtures live in company A's funnel F1. "agentElsewhere" is an agent who only sees another
 * funnel of A; "viewer" sees F1; "stranger" is the owner of company B using A's ids.
 */

const roles = ['owner', 'admin', 'agent', 'agentElsewhere', 'viewer', 'stranger'] as const;
type RoleName = (typeof roles)[number];
/** 'ok' is any 2xx; a number is the exact status. */
type Outcome = 'ok' | 302 | 400 | 401 | 403 | 404 | 409;
type Expectation = Record<RoleName, Outcome>;

// Who gets what, by kind of route.
const everyMember: Expectation = { owner: 'ok', admin: 'ok', agent: 'ok', agentElsewhere: 'ok', viewer: 'ok', stranger: 'ok' };
const memberById: Expectation = { ...everyMember, stranger: 404 };
const funnelRead: Expectation = { owner: 'ok', admin: 'ok', agent: 'ok', agentElsewhere: 404, viewer: 'ok', stranger: 404 };
const funnelWrite: Expectation = { ...funnelRead, viewer: 403 };
const managers: Expectation = { owner: 'ok', admin: 'ok', agent: 403, agentElsewhere: 403, viewer: 403, stranger: 'ok' };
const managersById: Expectation = { ...managers, stranger: 404 };
/** Agenda bookings (appointments, time blocks): every member but a viewer, in any funnel; A's ids are not B's. */
const writersById: Expectation = { ...memberById, viewer: 403 };
const ownerOnly: Expectation = { owner: 'ok', admin: 403, agent: 403, agentElsewhere: 403, viewer: 403, stranger: 'ok' };
/** The sandbox phone: every member but a viewer, agents only for customers of funnels they see; B plays its own customers. */
const sandboxPhone: Expectation = { owner: 'ok', admin: 'ok', agent: 'ok', agentElsewhere: 404, viewer: 403, stranger: 'ok' };
const platformAdmin: Expectation = { owner: 401, admin: 401, agent: 401, agentElsewhere: 401, viewer: 401, stranger: 401 };
const sameForAll = (outcome: Outcome): Expectation => ({
  owner: outcome,
  admin: outcome,
  agent: outcome,
  agentElsewhere: outcome,
  viewer: outcome,
  stranger: outcome,
});

interface Call {
  id?: string;
  query?: Record<string, string>;
  body?: unknown;
  /** multipart/form-data fields and one file. */
  form?: { fields: Record<string, string>; file: { field: string; name: string; data: Buffer } };
}

interface Entry {
  expect: Expectation;
  /** Builds a fresh request for one call (fresh fixtures where the call changes or removes them). */
  call?: (fixtures: Fixtures) => Promise<Call> | Call;
  /** The call ends the session it is made with: sign in again first. */
  freshSession?: boolean;
  /** The call revokes every session of the user and answers a new token: keep using that one. */
  renewsSessions?: boolean;
}

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const inHours = (hours: number) => new Date(Date.now() + hours * 60 * 60 * 1000).toISOString();
const soon = () => inHours(1);

/** One line per API route, keyed as the /api form (the /t/{slug}/api form is checked the same way). */
const matrix: Record<string, Entry> = {
  'POST /api/auth/login': { expect: sameForAll(400), call: () => ({ body: {} }) },
  'POST /api/auth/register': { expect: sameForAll(400), call: () => ({ body: {} }) },
  'GET /api/tenants/check-slug/:slug': { expect: sameForAll('ok'), call: () => ({ id: 'libre-del-todo' }) },
  // The API documentation is public: the page, its assets and the generated document.
  'GET /api/docs': { expect: sameForAll('ok') },
  'GET /api/docs/static/index.html': { expect: sameForAll(302) },
  'GET /api/docs/static/swagger-initializer.js': { expect: sameForAll('ok') },
  'GET /api/docs/json': { expect: sameForAll('ok') },
  'GET /api/docs/yaml': { expect: sameForAll('ok') },
  // The wildcard itself names no asset; test/http/openapi.test.ts fetches every asset the page loads.
  'GET /api/docs/static/*': { expect: sameForAll(404) },
  'GET /api/docs/openapi.json': { expect: sameForAll('ok') },
  'POST /api/auth/logout': { expect: everyMember, freshSession: true },
  'GET /api/auth/me': { expect: everyMember },
  'PUT /api/auth/change-password': { expect: everyMember, renewsSessions: true, call: (f) => ({ body: { newPassword: f.passwordOfCaller } }) },

  'POST /api/auth/admin/login': { expect: sameForAll(400), call: () => ({ body: {} }) },
  'GET /api/admin/me': { expect: platformAdmin },
  'POST /api/admin/logout': { expect: platformAdmin },
  'GET /api/admin/stats': { expect: platformAdmin },
  'GET /api/admin/tenants-summary': { expect: platformAdmin },
  'GET /api/admin/tenants': { expect: platformAdmin },
  'PUT /api/admin/tenants/:id/plan': { expect: platformAdmin, call: (f) => ({ id: f.tenantId, body: { subscription_plan: 'basic' } }) },
  'PUT /api/admin/tenants/:id/send-rate': { expect: platformAdmin, call: (f) => ({ id: f.tenantId, body: { messagesPerSecond: 80 } }) },
  'PUT /api/admin/users/:id/status': { expect: platformAdmin, call: (f) => ({ id: f.ownerId, body: { is_active: false } }) },
  'POST /api/admin/users/:id/reset-password': { expect: platformAdmin, call: (f) => ({ id: f.ownerId }) },
  'GET /api/admin/settings/pricing': { expect: platformAdmin },
  'PUT /api/admin/settings/pricing': { expect: platformAdmin, call: () => ({ body: {} }) },
  'GET /api/admin/settings/gupshup': { expect: platformAdmin },
  'PUT /api/admin/settings/gupshup': { expect: platformAdmin, call: () => ({ body: {} }) },
  'GET /api/admin/templates/all': { expect: platformAdmin },
  'GET /api/admin/tenants/:id/whatsapp-activity': { expect: platformAdmin, call: (f) => ({ id: f.tenantId }) },
  'POST /api/admin/tenants/:id/whatsapp-activity/jobs/:jobId/retry': { expect: platformAdmin, call: async (f) => ({ id: await f.failedJob() }) },
  'GET /api/admin/whatsapp-activity/silent-companies': { expect: platformAdmin },
  'PUT /api/admin/templates/:id/status': { expect: platformAdmin, call: async (f) => ({ id: await f.template(), body: { status: 'APPROVED' } }) },

  'GET /api/users': { expect: managers },
  'POST /api/users/invite': { expect: managers, call: () => ({ body: { name: 'Invitada', email: `invitada-${randomUUID()}@equipo.test` } }) },
  'POST /api/users/:id/reset-password': { expect: managersById, call: async (f) => ({ id: await f.teammate() }) },
  'PUT /api/users/:id': { expect: managersById, call: async (f) => ({ id: await f.teammate(), body: { role: 'viewer', funnelIds: [f.funnelId] } }) },

  'GET /api/funnels/summary': { expect: everyMember },
  'GET /api/funnels/shown-board': { expect: everyMember },
  'POST /api/funnels': { expect: managers, call: () => ({ body: { name: 'Nuevo embudo' } }) },
  'PUT /api/funnels/:id': { expect: funnelWrite, call: (f) => ({ id: f.funnelId, body: { name: 'Ventas' } }) },
  'GET /api/funnels/:id/board': { expect: funnelRead, call: (f) => ({ id: f.funnelId }) },
  'GET /api/funnels/:id/columns': { expect: funnelRead, call: (f) => ({ id: f.funnelId }) },
  'GET /api/columns/all': { expect: everyMember },
  'POST /api/columns': { expect: funnelWrite, call: (f) => ({ body: { funnelId: f.funnelId, title: 'Columna nueva' } }) },
  'PUT /api/columns/:id': { expect: funnelWrite, call: async (f) => ({ id: await f.column(), body: { title: 'Renombrada' } }) },
  'DELETE /api/columns/:id': { expect: funnelWrite, call: async (f) => ({ id: await f.column() }) },
  'POST /api/columns/:id/toggle-cards-ai': { expect: funnelWrite, call: async (f) => ({ id: await f.column(), body: { enabled: true } }) },
  'GET /api/columns/:id/cards': { expect: funnelRead, call: async (f) => ({ id: await f.column() }) },
  'GET /api/columns/:id/quick-replies': { expect: funnelRead, call: async (f) => ({ id: (await f.quickReply()).columnId }) },
  'POST /api/quick-replies': {
    expect: funnelWrite,
    call: async (f) => ({ body: { columnId: await f.column(), title: 'Saludo', text: 'Hola, ¿en qué te ayudo?' } }),
  },
  'PUT /api/quick-replies/:id': {
    expect: funnelWrite,
    call: async (f) => ({ id: (await f.quickReply()).id, body: { title: 'Despedida', text: 'Gracias por escribir' } }),
  },
  'DELETE /api/quick-replies/:id': { expect: funnelWrite, call: async (f) => ({ id: (await f.quickReply()).id }) },
  'GET /api/columns/:id/assigned-templates': { expect: funnelRead, call: async (f) => ({ id: await f.column() }) },
  'PUT /api/columns/:id/assigned-templates': {
    expect: funnelWrite,
    call: async (f) => ({ id: await f.column(), body: { templateIds: [await f.template()] } }),
  },
  'POST /api/columns/:id/tools/upload': {
    expect: funnelWrite,
    call: async (f) => ({
      id: await f.column(),
      form: { fields: {}, file: { field: 'tool_file', name: 'precios.csv', data: Buffer.from('producto,precio\nCorte,25\n') } },
    }),
  },
  'GET /api/columns/:id/tools/files': { expect: funnelWrite, call: async (f) => ({ id: await f.column() }) },
  'POST /api/card/move': { expect: funnelWrite, call: async (f) => ({ body: { cardId: await f.card(), targetColumnId: await f.column() } }) },
  'PUT /api/cards/:id': { expect: funnelWrite, call: async (f) => ({ id: await f.card(), body: { title: 'Cliente VIP' } }) },
  'PUT /api/cards/:id/toggle-ai': { expect: funnelWrite, call: async (f) => ({ id: await f.card(), body: { enabled: true } }) },
  'POST /api/cards/:id/archive': { expect: funnelWrite, call: async (f) => ({ id: await f.card() }) },
  'POST /api/cards/:id/mark-read': { expect: funnelWrite, call: async (f) => ({ id: await f.card() }) },
  'GET /api/cards/:id/messages': { expect: funnelRead, call: async (f) => ({ id: await f.card() }) },
  // The company is on Gupshup, whose API has no reactions: those who may react are told so (400), the rest as always.
  'POST /api/messages/:id/reaction': {
    expect: { ...funnelWrite, owner: 400, admin: 400, agent: 400 },
    call: async (f) => ({ id: await f.customerMessage(), body: { emoji: '👍' } }),
  },

  'POST /api/message': { expect: funnelWrite, call: async (f) => ({ body: { cardId: await f.card(), text: 'Hola', tempId: randomUUID() } }) },
  'POST /api/message/media': {
    expect: funnelWrite,
    call: async (f) => ({ form: { fields: { cardId: await f.card(), caption: 'Foto' }, file: { field: 'media', name: 'foto.png', data: PNG } } }),
  },
  'POST /api/message/template': {
    expect: funnelWrite,
    call: async (f) => ({ body: { cardId: await f.card(), templateId: await f.approvedTemplate(), variables: { 1: 'Lucía' }, tempId: randomUUID() } }),
  },
  'POST /api/initiate-conversation': {
    expect: funnelWrite,
    call: async (f) => ({ body: { templateId: await f.approvedTemplate(), phoneNumber: f.newPhone(), variables: { 1: 'Lucía' }, columnId: await f.column() } }),
  },
  'POST /api/message/schedule': { expect: funnelWrite, call: async (f) => ({ body: { cardId: await f.card(), scheduledFor: soon(), text: 'Recordatorio' } }) },
  'POST /api/note': { expect: funnelWrite, call: async (f) => ({ body: { cardId: await f.card(), text: 'Nota interna' } }) },
  'GET /api/ai/status': { expect: everyMember },
  'POST /api/ai/suggest-reply': { expect: funnelWrite, call: async (f) => ({ body: { cardId: await f.card() } }) },
  'POST /api/ai/summarize': { expect: funnelWrite, call: async (f) => ({ body: { cardId: await f.card() } }) },
  'GET /api/usage': { expect: everyMember },

  'GET /api/gupshup/settings': { expect: managers },
  // Company B may not take company A's Gupshup app.
  'PUT /api/gupshup/settings': { expect: { ...managers, stranger: 409 }, call: (f) => ({ body: { appName: f.appName, sourceNumber: '5215500000000' } }) },
  // Issue 18: the provider choice. Company B may not take (or probe) company A's Gupshup app.
  'GET /api/whatsapp/settings': { expect: managers },
  'PUT /api/whatsapp/settings': {
    expect: { ...managers, stranger: 409 },
    call: (f) => ({ body: { provider: 'gupshup', appName: f.appName, sourceNumber: '5215500000000' } }),
  },
  'POST /api/whatsapp/settings/test': {
    expect: { ...managers, stranger: 409 },
    call: (f) => ({ body: { provider: 'gupshup', appName: f.appName, sourceNumber: '5215500000000' } }),
  },
  // Issue 43: Baja de marketing, the company's opt-out words.
  'GET /api/whatsapp/opt-out-keywords': { expect: managers },
  'PUT /api/whatsapp/opt-out-keywords': { expect: managers, call: () => ({ body: { keywords: ['BAJA', 'ALTO'] } }) },
  'GET /api/bot-settings': { expect: managers },
  // The WhatsApp activity panel (issue 17): owners and admins; a failed job of A is a 404 to B.
  'GET /api/whatsapp/activity': { expect: managers },
  'POST /api/whatsapp/activity/jobs/:id/retry': { expect: managersById, call: async (f) => ({ id: await f.failedJob() }) },
  'PUT /api/bot-settings': { expect: managers, call: () => ({ body: { enabled: false, message: 'Hola' } }) },

  'GET /api/templates': { expect: everyMember },
  'GET /api/templates/:id': { expect: memberById, call: async (f) => ({ id: await f.template() }) },
  'POST /api/templates': { expect: managers, call: () => ({ body: { name: `plantilla_${randomUUID().slice(0, 8)}`, body_text: 'Hola {{1}}' } }) },
  'PUT /api/templates/:id': {
    expect: managersById,
    call: async (f) => ({ id: await f.template(), body: { name: `editada_${randomUUID().slice(0, 8)}`, body_text: 'Hola de nuevo' } }),
  },
  'DELETE /api/templates/:id': { expect: managersById, call: async (f) => ({ id: await f.template() }) },
  'POST /api/templates/sync': { expect: managers },
  'POST /api/templates/media': { expect: managers, call: () => ({ form: { fields: {}, file: { field: 'media', name: 'cabecera.png', data: PNG } } }) },

  'GET /api/bots': { expect: everyMember },
  'POST /api/bots': { expect: managers, call: () => ({ body: { name: 'Bot de citas', type: 'scheduling', avatar_icon: 'scheduling' } }) },
  // A bot's flow is Bots Studio's (owners and admins); everyone lists the bots for Configurar Bot Gemini.
  'GET /api/bots/:id': { expect: managersById, call: async (f) => ({ id: await f.bot() }) },
  'PUT /api/bots/:id': { expect: managersById, call: async (f) => ({ id: await f.bot(), body: { name: 'Renombrado', config: { nodes: [], edges: [] } } }) },
  'DELETE /api/bots/:id': { expect: managersById, call: async (f) => ({ id: await f.bot() }) },
  'POST /api/bots/:id/simulate': {
    expect: managersById,
    call: async (f) => ({ id: await f.bot(), body: { message: 'Hola', sessionId: null, botConfig: { nodes: [], edges: [] } } }),
  },
  'DELETE /api/bots/simulation/:sessionId': { expect: managersById, call: async (f) => ({ id: await f.simulation() }) },

  'GET /api/batches': { expect: everyMember },
  // Issue 18: a batch's failed rows, seen by whoever sees its funnel.
  'GET /api/batches/:id/failures': { expect: funnelRead, call: async (f) => ({ id: await f.batch() }) },
  'POST /api/funnels/:id/batches': {
    expect: funnelWrite,
    call: async (f) => ({
      id: f.funnelId,
      form: {
        fields: { templateId: await f.approvedTemplate(), targetColumnId: await f.column(), phoneColumn: 'telefono' },
        file: {
          field: 'file',
          name: 'clientes.xlsx',
          data: await excelFile([
            ['telefono', 'Variable 1'],
            [f.newPhone(), 'Lucía'],
          ]),
        },
      },
    }),
  },

  'GET /sandbox/api/app': { expect: { ...sandboxPhone, agentElsewhere: 'ok' } },
  'GET /sandbox/api/conversation': { expect: sandboxPhone, call: async (f) => ({ query: { phone: await f.customerPhone() } }) },
  'POST /sandbox/api/send': {
    expect: sandboxPhone,
    call: async (f) => ({ body: { phone: await f.customerPhone(), message: { kind: 'text', text: 'Hola' } } }),
  },
  // B's phone has no such message in its own conversation with that number.
  'POST /sandbox/api/change': {
    expect: { ...sandboxPhone, stranger: 404 },
    call: async (f) => {
      const { phone, messageId } = await f.phoneMessage();
      return { body: { phone, change: { kind: 'reaction', messageId, emoji: '👍' } } };
    },
  },

  'GET /api/agenda/data': { expect: everyMember, call: () => ({ query: { start: inHours(-24 * 7), end: inHours(24 * 7) } }) },
  'GET /api/agenda/settings': { expect: everyMember },
  'PUT /api/agenda/settings': { expect: ownerOnly, call: () => ({ body: { timezone: 'America/Bogota' } }) },
  'GET /api/agenda/search-contacts': { expect: everyMember, call: () => ({ query: { q: 'Cliente' } }) },
  'GET /api/agenda/availability': { expect: memberById, call: async (f) => ({ query: { ...(await f.catalog()), date: inHours(24).slice(0, 10) } }) },
  'POST /api/agenda/professionals': {
    expect: managersById,
    call: async (f) => ({ body: { name: 'Marta', color: 'green', serviceIds: [(await f.catalog()).serviceId] } }),
  },
  'PUT /api/agenda/professionals/:id': { expect: managersById, call: async (f) => ({ id: (await f.catalog()).professionalId, body: { name: 'Lucía Gómez' } }) },
  'DELETE /api/agenda/professionals/:id': { expect: managersById, call: async (f) => ({ id: (await f.catalog()).professionalId }) },
  'POST /api/agenda/services': { expect: managers, call: () => ({ body: { name: 'Manicura', duration: 45, cost: 18 } }) },
  'PUT /api/agenda/services/:id': { expect: managersById, call: async (f) => ({ id: (await f.catalog()).serviceId, body: { cost: 30 } }) },
  'DELETE /api/agenda/services/:id': { expect: managersById, call: async (f) => ({ id: (await f.catalog()).serviceId }) },
  'POST /api/agenda/appointments': {
    expect: writersById,
    call: async (f) => ({ body: { ...(await f.catalog()), clientName: 'Lucía', startTime: inHours(24), endTime: inHours(25) } }),
  },
  'PUT /api/agenda/appointments/:id': { expect: writersById, call: async (f) => ({ id: await f.appointment(), body: { clientName: 'Lucía Pérez' } }) },
  'DELETE /api/agenda/appointments/:id': { expect: writersById, call: async (f) => ({ id: await f.appointment() }) },
  'POST /api/agenda/time-blocks': {
    expect: writersById,
    call: async (f) => ({ body: { professionalId: (await f.catalog()).professionalId, startTime: inHours(48), endTime: inHours(49), reason: 'Médico' } }),
  },
  'PUT /api/agenda/time-blocks/:id': { expect: writersById, call: async (f) => ({ id: await f.timeBlock(), body: { reason: 'Formación' } }) },
  'DELETE /api/agenda/time-blocks/:id': { expect: writersById, call: async (f) => ({ id: await f.timeBlock() }) },
};

interface Fixtures {
  tenantId: string;
  ownerId: string;
  funnelId: string;
  appName: string;
  passwordOfCaller: string;
  column(): Promise<string>;
  card(): Promise<string>;
  /** A customer's message in a fresh card of A in F1. */
  customerMessage(): Promise<string>;
  /** The phone of a fresh card of A in F1: a customer whose chat only F1's members see. */
  customerPhone(): Promise<string>;
  /** A customer's message in a fresh card of A in F1, as the CRM and the sandbox phone both keep it. */
  phoneMessage(): Promise<{ phone: string; messageId: string }>;
  /** A phone number no contact of A has yet. */
  newPhone(): string;
  /** A quick reply in a fresh column of F1. */
  quickReply(): Promise<{ id: string; columnId: string }>;
  template(): Promise<string>;
  /** One APPROVED template of A ('Hola {{1}}'), reviewed by the sandbox; shared, since sending does not change it. */
  approvedTemplate(): Promise<string>;
  teammate(): Promise<string>;
  /** A fresh agenda service of A and a fresh professional who offers it. */
  catalog(): Promise<{ professionalId: string; serviceId: string }>;
  /** An appointment of A tomorrow, with its own professional. */
  appointment(): Promise<string>;
  /** A time block of A the day after tomorrow, with its own professional. */
  timeBlock(): Promise<string>;
  /** A fresh Bots Studio bot of A. */
  bot(): Promise<string>;
  /** A fresh playground session of one of A's bots. */
  simulation(): Promise<string>;
  /** A bulk send of A in F1. */
  batch(): Promise<string>;
  /** A fresh job of A that failed for good (the activity panel's Reintentar). */
  failedJob(): Promise<string>;
}

interface Caller {
  token: string;
  slug: string;
  email: string;
  password: string;
}

let t: TestApp;
let callers: Record<RoleName, Caller>;
let fixtures: (caller: Caller) => Fixtures;

beforeAll(async () => {
  // The sandbox model answers the copilot, as in the embedded default.
  t = await buildTestApp({ providerMode: 'sandbox', aiProvider: 'sandbox' });
  await listenOnRandomPort(t.app);
  t.app.sandboxPhone!.templateReviewMs = 20;
  await bootstrapPlatformAdmin(t.database.db, { email: 'matriz@embudo.test', password: 'Matriz1234' });
  const db = t.database.db;
  const a = await registerTenant(t.app, { companyName: 'Empresa A' });
  const b = await registerTenant(t.app, { companyName: 'Empresa B' });
  // Enterprise: no member limit and every feature, so only roles decide the answers.
  for (const tenant of [a.tenant, b.tenant]) await db.update(tenants).set({ subscriptionPlan: 'enterprise' }).where(eq(tenants.id, tenant.id));
  const [f1] = await db.select().from(funnels).where(eq(funnels.tenantId, a.tenant.id)).orderBy(asc(funnels.position));
  const [f2] = await db.insert(funnels).values({ tenantId: a.tenant.id, name: 'Otro embudo', position: 1 }).returning();
  const [firstColumn] = await db
    .select()
    .from(boardColumns)
    .where(and(eq(boardColumns.tenantId, a.tenant.id), eq(boardColumns.funnelId, f1!.id)))
    .orderBy(asc(boardColumns.position));

  const member = async (role: 'admin' | 'agent' | 'viewer', funnelIds: string[]) => {
    const { user, token } = await signedInMember(t.app, db, a.tenant, role, funnelIds);
    return { token, slug: a.tenant.slug, email: user.email, password: MEMBER_PASSWORD };
  };
  callers = {
    owner: { token: a.token, slug: a.tenant.slug, email: a.user.email, password: a.password },
    admin: await member('admin', []),
    agent: await member('agent', [f1!.id]),
    agentElsewhere: await member('agent', [f2!.id]),
    viewer: await member('viewer', [f1!.id]),
    stranger: { token: b.token, slug: b.tenant.slug, email: b.user.email, password: b.password },
  };

  let phones = 0;
  const newPhone = () => {
    phones += 1;
    return `5215599${String(phones).padStart(6, '0')}`;
  };
  // Agenda and template fixtures are made through the API by A's owner, with the token in use now.
  const ownerOfA = () => ({ ...a, token: callers.owner.token });
  let approved: Promise<string> | undefined;
  const catalog = async () => {
    const { professional, service } = await seedCatalog(t.app, ownerOfA());
    return { professionalId: professional.id, serviceId: service.id };
  };
  const appName = (await t.app.inject({ method: 'GET', url: '/api/gupshup/settings', headers: bearer(a.token) })).json().appName as string;
  const cardInF1 = async () => {
    const phone = newPhone();
    const [contact] = await db.insert(contacts).values({ tenantId: a.tenant.id, phone, name: 'Cliente' }).returning();
    const [row] = await db
      .insert(cards)
      .values({
        tenantId: a.tenant.id,
        funnelId: f1!.id,
        columnId: firstColumn!.id,
        contactId: contact!.id,
        title: 'Cliente',
        phone,
        unreadCount: 1,
        contactLastMessageAt: new Date(),
      })
      .returning();
    return row!;
  };
  fixtures = (caller) => ({
    failedJob: async () => {
      const [row] = await db
        .insert(jobs)
        .values({ name: 'test.failed-for-good', payload: { tenantId: a.tenant.id }, status: 'failed', attempts: 1, maxAttempts: 1, tenantId: a.tenant.id })
        .returning();
      return row!.id;
    },
    tenantId: a.tenant.id,
    ownerId: a.user.id,
    funnelId: f1!.id,
    appName,
    passwordOfCaller: caller.password,
    column: async () => {
      const [row] = await db.insert(boardColumns).values({ tenantId: a.tenant.id, funnelId: f1!.id, title: 'Fixture', position: 99 }).returning();
      return row!.id;
    },
    newPhone,
    card: async () => (await cardInF1()).id,
    customerMessage: async () => {
      const card = await cardInF1();
      const [row] = await db
        .insert(messages)
        .values({ tenantId: a.tenant.id, cardId: card.id, sender: 'contact', text: 'Hola', type: 'text', providerMessageId: `wamid.${randomUUID()}`, ack: 3 })
        .returning();
      return row!.id;
    },
    customerPhone: async () => (await cardInF1()).phone!,
    phoneMessage: async () => {
      const card = await cardInF1();
      const messageId = `wamid.${randomUUID()}`;
      await db.insert(messages).values({ tenantId: a.tenant.id, cardId: card.id, sender: 'contact', text: 'Hola', type: 'text', providerMessageId: messageId });
      const sandboxApp = (await t.app.inject({ method: 'GET', url: '/sandbox/api/app', headers: bearer(callers.owner.token) })).json().appName as string;
      await db.insert(sandboxPhoneMessages).values({
        messageId,
        appName: sandboxApp,
        conversation: card.phone!,
        direction: 'from_customer',
        type: 'text',
        body: { text: 'Hola' },
        status: 'delivered',
      });
      return { phone: card.phone!, messageId };
    },
    template: async () => {
      const created = await t.app.inject({
        method: 'POST',
        url: '/api/templates',
        headers: bearer(callers.owner.token),
        payload: { name: `fixture_${randomUUID().slice(0, 8)}`, body_text: 'Hola {{1}}' },
      });
      if (created.statusCode !== 201) throw new Error(`template fixture: ${created.statusCode} ${created.body}`);
      return created.json().id as string;
    },
    quickReply: async () => {
      const [column] = await db.insert(boardColumns).values({ tenantId: a.tenant.id, funnelId: f1!.id, title: 'Con respuestas', position: 99 }).returning();
      const created = await t.app.inject({
        method: 'POST',
        url: '/api/quick-replies',
        headers: bearer(callers.owner.token),
        payload: { columnId: column!.id, title: 'Horario', text: 'Abrimos de 9 a 17' },
      });
      if (created.statusCode !== 201) throw new Error(`quick reply fixture: ${created.statusCode} ${created.body}`);
      return { id: created.json().id as string, columnId: column!.id };
    },
    approvedTemplate: () =>
      (approved ??= approvedTemplate(t, ownerOfA(), { name: `aprobada_${randomUUID().slice(0, 8)}`, body_text: 'Hola {{1}}' }).then((row) => row.id)),
    teammate: async () => (await signedInMember(t.app, db, a.tenant, 'agent', [f1!.id])).user.id,
    catalog,
    appointment: async () => (await book(t.app, ownerOfA(), { ...(await catalog()), startTime: inHours(24), endTime: inHours(25) })).id,
    bot: async () => {
      const created = await t.app.inject({ method: 'POST', url: '/api/bots', headers: bearer(callers.owner.token), payload: { name: 'Fixture' } });
      if (created.statusCode !== 201) throw new Error(`bot fixture: ${created.statusCode} ${created.body}`);
      return created.json().id as string;
    },
    simulation: async () => {
      const created = await t.app.inject({ method: 'POST', url: '/api/bots', headers: bearer(callers.owner.token), payload: { name: 'Fixture' } });
      const simulated = await t.app.inject({
        method: 'POST',
        url: `/api/bots/${created.json().id}/simulate`,
        headers: bearer(callers.owner.token),
        payload: { message: 'Hola', botConfig: { nodes: [], edges: [] } },
      });
      if (simulated.statusCode !== 200) throw new Error(`simulation fixture: ${simulated.statusCode} ${simulated.body}`);
      return simulated.json().sessionId as string;
    },
    batch: async () => {
      const [row] = await db
        .insert(batches)
        .values({ tenantId: a.tenant.id, funnelId: f1!.id, templateName: 'fixture', userName: 'Ana', fileName: 'clientes.xlsx' })
        .returning();
      return row!.id;
    },
    timeBlock: async () => {
      const { professionalId } = await catalog();
      const created = await t.app.inject({
        method: 'POST',
        url: '/api/agenda/time-blocks',
        headers: bearer(callers.owner.token),
        payload: { professionalId, startTime: inHours(48), endTime: inHours(49), reason: 'Vacaciones' },
      });
      if (created.statusCode !== 201) throw new Error(`time block fixture: ${created.statusCode} ${created.body}`);
      return created.json().id as string;
    },
  });
});
afterAll(async () => t.close());

const keyOf = (method: string, url: string) => `${method} ${url.startsWith(TENANT_PREFIX) ? url.slice(TENANT_PREFIX.length) : url}`;

function multipartBody(form: NonNullable<Call['form']>) {
  const boundary = `----matriz${randomUUID()}`;
  const parts: Buffer[] = Object.entries(form.fields).map(([name, value]) =>
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
  );
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${form.file.field}"; filename="${form.file.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    form.file.data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { payload: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

async function tokenFor(caller: Caller, fresh: boolean) {
  if (!fresh) return caller.token;
  const login = await t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    remoteAddress: '10.88.0.1',
    payload: { email: caller.email, password: caller.password, tenantSlug: caller.slug },
  });
  if (login.statusCode !== 200) throw new Error(`fresh login failed: ${login.body}`);
  return login.json().token as string;
}

function matches(outcome: Outcome, status: number) {
  return outcome === 'ok' ? status >= 200 && status < 300 : status === outcome;
}

describe('role matrix', () => {
  it('has exactly one line for every API route of the route table', () => {
    const routeKeys = new Set(t.app.routeTable.filter((route) => isApiRoute(route.url)).map((route) => keyOf(route.method, route.url)));
    const missing = [...routeKeys].filter((key) => !(key in matrix));
    const stale = Object.keys(matrix).filter((key) => !routeKeys.has(key));
    expect(missing, 'routes without a line in the role matrix').toEqual([]);
    expect(stale, 'matrix lines for routes that do not exist').toEqual([]);
  });

  it.each(Object.keys(matrix))('%s answers each role as expected', async (key) => {
    const entry = matrix[key]!;
    const forms = t.app.routeTable.filter((route) => isApiRoute(route.url) && keyOf(route.method, route.url) === key);
    expect(forms.length).toBeGreaterThan(0);
    const wrong: string[] = [];
    for (const route of forms) {
      for (const role of roles) {
        const caller = callers[role];
        const request = (await entry.call?.(fixtures(caller))) ?? {};
        const path = route.url.replace(':tenantSlug', caller.slug).replace(/:(?!tenantSlug)[A-Za-z]+/, request.id ?? randomUUID());
        const url = request.query ? `${path}?${new URLSearchParams(request.query)}` : path;
        const token = await tokenFor(caller, entry.freshSession ?? false);
        const multipart = request.form ? multipartBody(request.form) : undefined;
        const response = await t.app.inject({
          method: route.method as 'GET',
          url,
          headers: { ...bearer(token), ...(multipart ? { 'content-type': multipart.contentType } : {}) },
          payload: multipart ? multipart.payload : (request.body as object | undefined),
        });
        if (entry.renewsSessions && response.statusCode === 200) caller.token = response.json().token;
        const expected = entry.expect[role];
        if (!matches(expected, response.statusCode))
          wrong.push(`${role} on ${route.url}: expected ${expected}, got ${response.statusCode} ${response.body.slice(0, 160)}`);
        else if (response.statusCode >= 400) expect(response.json().message, `${role} on ${route.url}`).toEqual(expect.any(String));
      }
    }
    expect(wrong).toEqual([]);
  });
});
