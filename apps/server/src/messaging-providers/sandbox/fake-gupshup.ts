import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import type { RenderedTemplate } from '@embudo/contracts/http/templates';
import { secretMatches } from '../../platform/auth/secrets.ts';
import { callService } from '../../platform/outbound-http/service-http.ts';
import { FakeStatusChains, FakeTimers, HeldReviews } from './fake-timers.ts';
import { createMemoryFakeStateStore, type FakeStateStore } from './fake-state-store.ts';
import {
  createMemoryConversationStore,
  type FakeConversationMessage,
  type FakeConversationStore,
  type FakeMessageStatus,
  type FakeUpload,
} from './conversation-store.ts';
import { changedBody, whatsappIdOf, type ChangingCustomer, type CustomerChange } from './customer-change.ts';

export type { FakeConversationMessage } from './conversation-store.ts';

/**
 * A faithful fake of Gupshup's Access API: the same endpoints, form fields and answers, and the
 * same v2 callbacks (inbound messages, then enqueued → sent → delivered → read for what is sent).
 * The customer's own messages go sent → delivered (our webhook took them) → read (the business's
 * read receipt). It backs the in-process sandbox provider, the sandbox phone, and tests as a standalone server.
 */

export interface FakeApp {
  appName: string;
  sourceNumber: string;
  label?: string;
  callbackUrl: string;
  /** The API key the fake issued for this app: a send with any other key is refused, as Gupshup does. */
  apiKey: string;
}

export interface FakeGupshupOptions {
  /** Apps the fake knows (the business side): app name → callback URL. */
  apps: () => Promise<FakeApp[]> | FakeApp[];
  /** One app by name, when the registry can read it alone (the server's reads one company, not all of them). */
  app?: (appName: string) => Promise<FakeApp | undefined>;
  /** Delay between the status callbacks; short by default so the UI shows ticks moving. */
  statusStepMs?: number;
  /** Public base URL of this fake, for the media URLs it hands out. */
  publicUrl: () => string;
  log?: { warn(obj: unknown, msg?: string): void };
  /** How long the fake "Meta review" of a new template takes; tests make it short. */
  templateReviewMs?: number;
  /** Where conversations and customer uploads are kept; bounded in memory unless given (the app keeps them in its database). */
  store?: FakeConversationStore;
  /** Where templates and the statuses still owed are kept; in memory unless given (the app keeps them in its database). */
  state?: FakeStateStore;
  /**
   * The partner accounts that may sign in, each with the apps it owns (every app the fake knows when `apps` is
   * omitted). Without it (a standalone fake in tests) any email with a password signs in and owns every app.
   */
  partners?: () => Promise<FakePartnerAccount[]> | FakePartnerAccount[];
}

/** A partner account of the fake (partner.gupshup.io): who signs in, and which apps its tokens serve. */
export interface FakePartnerAccount {
  email: string;
  password: string;
  apps?: string[];
}

/** One status the fake still owes for a message it took, as kept in its state store. */
interface GupshupStatus {
  appName: string;
  messageId: string;
  /** What the sandbox phone shows once it is sent. */
  phone: FakeMessageStatus;
  /** The `message-event` payload; `ts` is added when it is sent. */
  event: Record<string, unknown>;
  stamped?: boolean;
}

export interface SentRequest {
  method?: string;
  path: string;
  headers: Record<string, string | undefined>;
  /** Form fields as sent; for a multipart upload, its text fields plus `file` (the file name). */
  form: Record<string, string>;
  /** The body of a JSON call (the v3 passthrough), as sent. */
  json?: unknown;
}

/** A template as the partner API lists it (gupshup.md §7.5). */
export interface FakePartnerTemplate {
  id: string;
  appId: string;
  elementName: string;
  externalId: string;
  category: string;
  languageCode: string;
  languagePolicy: 'deterministic';
  templateType: string;
  vertical: string;
  /** Meta may pause an approved template later (low quality); tests set it to play that. */
  status: 'PENDING' | 'APPROVED' | 'REJECTED' | 'PAUSED';
  reason: string | null;
  quality: 'UNKNOWN';
  data: string;
  meta: string;
  containerMeta: string;
  buttonSupported?: string;
  createdOn: number;
  modifiedOn: number;
}

export type PartnerCall = 'login' | 'token' | 'create' | 'list' | 'delete' | 'upload' | 'mark-read';

/** The fake reviewer rejects a body containing this word, so tests and demos choose the outcome. */
export const FAKE_REJECT_WORD = 'rechazar';
export const FAKE_REJECTION_REASON = 'Contenido no permitido por la política de WhatsApp';

const partnerCategories = ['MARKETING', 'UTILITY', 'AUTHENTICATION'];
const partnerTemplateTypes = ['TEXT', 'IMAGE', 'VIDEO', 'DOCUMENT', 'LOCATION', 'CAROUSEL', 'CATALOG', 'PRODUCT'];
const sampleMediaTypes = ['image/jpeg', 'image/png', 'video/mp4', 'application/pdf'];
const unauthorised = {
  status: 401,
  body: { status: 'error', message: 'Unauthorised access to the resource. Please review request parameters and headers and retry' },
};
const authenticationFailed = { status: 401, body: { status: 'error', message: 'Authentication Failed' } };

/** Destinations starting with this prefix do not exist on WhatsApp (Gupshup code 1002). */
export const FAKE_UNKNOWN_NUMBER_PREFIX = '000';

/** How long a fake waits for the app to take a callback (Gupshup expects its 2xx within 10 s). */
export const CALLBACK_TIMEOUT_MS = 10_000;

export class FakeGupshup {
  readonly requests: SentRequest[] = [];
  private readonly store: FakeConversationStore;
  private failures: Array<{ status: number; body: unknown }> = [];
  private readonly timers = new FakeTimers();
  private readonly state: FakeStateStore;
  private readonly statuses: FakeStatusChains<GupshupStatus>;
  /** Signed-in partner tokens → the account's email. */
  private readonly partnerTokens = new Map<string, string>();
  private readonly appTokens = new Map<string, string>();
  private readonly partnerTemplates = new Map<string, FakePartnerTemplate[]>();
  private readonly mediaHandles = new Map<string, { fileType: string; size: number }>();
  private readonly partnerFailures = new Map<PartnerCall, Array<{ status: number; body: unknown }>>();
  private readonly heldReviews = new HeldReviews<FakePartnerTemplate>();
  /** Milliseconds before a new template leaves PENDING; mutable so a test can shorten it. */
  templateReviewMs: number;

  constructor(private readonly options: FakeGupshupOptions) {
    this.templateReviewMs = options.templateReviewMs ?? 1500;
    this.store = options.store ?? createMemoryConversationStore();
    this.state = options.state ?? createMemoryFakeStateStore();
    this.statuses = new FakeStatusChains({
      fake: 'gupshup',
      store: this.state,
      timers: this.timers,
      play: (status) => this.playStatus(status),
      stepMs: options.statusStepMs,
      log: options.log,
    });
  }

  /** Reads the templates kept by an earlier run (before the fake serves anything). */
  async load(): Promise<void> {
    for (const { template, reviewDueAt } of await this.state.templates<FakePartnerTemplate>('gupshup')) {
      const templates = this.partnerTemplates.get(template.appId) ?? [];
      templates.push(template);
      this.partnerTemplates.set(template.appId, templates);
      if (reviewDueAt && template.status === 'PENDING') this.heldReviews.hold(template, reviewDueAt);
    }
  }

  /** Finishes what an earlier run left under way: reviews, and the statuses still owed (once callbacks reach the app). */
  async resume(): Promise<void> {
    this.heldReviews.release((template, delayMs) => this.scheduleReview(template, delayMs));
    await this.statuses.resume();
  }

  /** Makes the next sends answer with these errors, in order (e.g. a 503 outage). */
  failNextSends(...failures: Array<{ status: number; body?: unknown }>) {
    this.failures.push(...failures.map((failure) => ({ status: failure.status, body: failure.body ?? { status: 'error', message: 'Internal Server Error' } })));
  }

  /** What the customer's WhatsApp shows of the conversation with the app, oldest first. */
  conversation(appName: string, customerPhone: string): Promise<FakeConversationMessage[]> {
    return this.store.list(appName, customerPhone);
  }

  async listApps(): Promise<FakeApp[]> {
    return this.options.apps();
  }

  close() {
    this.timers.clear();
  }

  private async appNamed(appName: string | undefined) {
    if (!appName) return undefined;
    if (this.options.app) return this.options.app(appName);
    return (await this.options.apps()).find((app) => app.appName === appName);
  }

  /** Delivers one callback; answers whether the app accepted it (2xx). */
  private async callback(app: FakeApp, type: string, payload: Record<string, unknown>): Promise<boolean> {
    return this.post(app, { app: app.appName, timestamp: Date.now(), version: 2, type, payload }, type);
  }

  private async post(app: FakeApp, envelope: Record<string, unknown>, type: string): Promise<boolean> {
    try {
      const response = await callService(app.callbackUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'Gupshup-Sandbox/1.0' },
        body: JSON.stringify(envelope),
        timeoutMs: CALLBACK_TIMEOUT_MS,
      });
      if (!response.ok) this.options.log?.warn({ status: response.status, type }, 'sandbox callback refused');
      return response.ok;
    } catch (error) {
      this.options.log?.warn({ err: error, type }, 'sandbox callback failed');
      return false;
    }
  }

  /** Plays the customer's phone: the delivery callbacks of one message the business sent (kept before the send is answered). */
  private async playStatuses(app: FakeApp, message: FakeConversationMessage, destination: string, failure?: { code: number; reason: string }) {
    const wamid = message.whatsappId!;
    const status = (phone: FakeMessageStatus, event: Record<string, unknown>, stamped = false): GupshupStatus => ({
      appName: app.appName,
      messageId: message.id,
      phone,
      event,
      ...(stamped ? { stamped } : {}),
    });
    const enqueued = status('enqueued', {
      id: message.id,
      type: 'enqueued',
      destination,
      payload: { whatsappMessageId: wamid, type: message.type === 'template' ? 'template' : 'session' },
    });
    const failed = failure ?? (destination.startsWith(FAKE_UNKNOWN_NUMBER_PREFIX) ? { code: 1002, reason: 'Number Does Not Exists On WhatsApp' } : undefined);
    const outcome = failed
      ? [status('failed', { id: message.id, type: 'failed', destination, payload: failed })]
      : (['sent', 'delivered', 'read'] as const).map((state) => status(state, { id: wamid, gsId: message.id, type: state, destination }, true));
    // enqueued at once, then each outcome a step after the previous callback.
    await this.statuses.start(message.id, 0, [enqueued, ...outcome]);
  }

  private async playStatus(status: GupshupStatus): Promise<boolean> {
    await this.store.setStatus(status.messageId, status.phone);
    const app = await this.appNamed(status.appName);
    if (!app) return true;
    const event = status.stamped ? { ...status.event, payload: { ts: Math.floor(Date.now() / 1000) } } : status.event;
    return this.callback(app, 'message-event', event);
  }

  async handleSend(path: string, headers: Record<string, string | undefined>, form: Record<string, string>) {
    this.requests.push({ path, headers, form });
    const apiKey = headers.apikey ?? headers.api_key;
    if (!apiKey) return authenticationFailed;
    const failure = this.failures.shift();
    if (failure) return failure;

    const app = await this.appNamed(form['src.name']);
    // Gupshup answers a key that is not the app's as an authentication failure, before looking at anything else.
    if (app && !secretMatches(app.apiKey, apiKey)) return authenticationFailed;
    if (!app || (form.source && form.source !== app.sourceNumber)) return { status: 400, body: { status: 'error', message: 'Invalid App Details' } };
    const destination = form.destination ?? '';
    if (!/^\d{6,20}$/.test(destination)) return { status: 400, body: { status: 'error', message: 'Invalid Destination' } };

    let body: Record<string, unknown>;
    let type: string;
    try {
      if (path.endsWith('/template/msg')) {
        const template = JSON.parse(form.template ?? '') as Record<string, unknown>;
        if (typeof template.id !== 'string') throw new Error('template id');
        if (template.params !== undefined && !(Array.isArray(template.params) && template.params.every((param) => typeof param === 'string')))
          throw new Error('params');
        body = { template, ...(form.message ? { message: JSON.parse(form.message) } : {}) };
        type = 'template';
      } else {
        body = JSON.parse(form.message ?? '') as Record<string, unknown>;
        type = String(body.type ?? '');
        if (!type) throw new Error('message type');
      }
    } catch {
      return { status: 400, body: { status: 'error', message: 'Invalid Message' } };
    }
    const message: FakeConversationMessage = {
      id: randomUUID(),
      whatsappId: `wamid.${randomUUID().replace(/-/g, '')}`,
      direction: 'to_customer',
      type,
      body,
      status: 'submitted',
      createdAt: new Date().toISOString(),
    };
    let templateFailure: { code: number; reason: string } | undefined;
    if (type === 'template') {
      const rendered = this.renderTemplate(app.appName, body);
      if ('failure' in rendered) templateFailure = rendered.failure;
      else message.template = rendered;
    }
    await this.store.append(app.appName, destination, message);
    await this.playStatuses(app, message, destination, templateFailure);
    return { status: 200, body: { status: 'submitted', messageId: message.id } };
  }

  /**
   * What the customer's WhatsApp shows for a template send: the app's approved template (by its Gupshup id)
   * with the params in place. Gupshup accepts the send and reports a mismatch later as a `failed` event.
   */
  private renderTemplate(appId: string, body: Record<string, unknown>): RenderedTemplate | { failure: { code: number; reason: string } } {
    const sent = body.template as { id: string; params?: string[] };
    const template = this.templatesOf(appId).find((candidate) => candidate.id === sent.id);
    if (!template) return { failure: { code: 4003, reason: 'Template not found or does not match' } };
    // Gupshup's own code for a paused template (gupshup.md §8); any other unapproved one matches no template.
    if (template.status === 'PAUSED') return { failure: { code: 4005, reason: 'Template is PAUSED' } };
    if (template.status !== 'APPROVED') return { failure: { code: 4003, reason: `Template is ${template.status}, not APPROVED` } };
    const params = sent.params ?? [];
    // Params are positional: the i-th placeholder number in order takes the i-th param.
    const placeholders = [...new Set([...template.data.matchAll(/\{\{\s*(\d+)\s*\}\}/g)].map((match) => Number(match[1])))].sort((a, b) => a - b);
    if (params.length !== placeholders.length)
      return { failure: { code: 4003, reason: `Template expects ${placeholders.length} params, got ${params.length}` } };
    const container = JSON.parse(template.containerMeta) as { buttons?: RenderedTemplate['buttons']; header?: string; footer?: string };
    const media = body.message as ({ type?: string } & Record<string, { link?: string } | undefined>) | undefined;
    const mediaType = template.templateType as 'IMAGE' | 'VIDEO' | 'DOCUMENT';
    const header: RenderedTemplate['header'] = ['IMAGE', 'VIDEO', 'DOCUMENT'].includes(mediaType)
      ? { type: mediaType, url: media?.type ? media[media.type]?.link : undefined }
      : container.header
        ? { type: 'TEXT', text: container.header }
        : undefined;
    return {
      name: template.elementName,
      ...(header ? { header } : {}),
      body: template.data.replace(/\{\{\s*(\d+)\s*\}\}/g, (whole, n: string) => params[placeholders.indexOf(Number(n))] ?? whole),
      ...(container.footer ? { footer: container.footer } : {}),
      buttons: (container.buttons ?? []).map(({ type, text, url, phone_number }) => ({
        type,
        text,
        ...(url ? { url } : {}),
        ...(phone_number ? { phone_number } : {}),
      })),
    };
  }

  /** Makes the next partner call of this kind answer this (e.g. an upload answer without handleId). */
  failNextPartnerCall(call: PartnerCall, failure: { status: number; body?: unknown }) {
    const queue = this.partnerFailures.get(call) ?? [];
    queue.push({ status: failure.status, body: failure.body ?? { status: 'error', message: 'Internal Server Error' } });
    this.partnerFailures.set(call, queue);
  }

  /** The templates an app holds at the "provider". */
  templatesOf(appId: string): FakePartnerTemplate[] {
    return this.partnerTemplates.get(appId) ?? [];
  }

  /**
   * The platform operator's approval is the sandbox's "Meta review" too, so an approved template really sends.
   * False when the fake does not hold it. Answers once the approval is kept.
   */
  async approveTemplate(appId: string, templateId: string): Promise<boolean> {
    const template = this.templatesOf(appId).find((held) => held.id === templateId);
    if (!template) return false;
    template.status = 'APPROVED';
    template.reason = null;
    template.modifiedOn = Date.now();
    await this.keepTemplate(template);
    return true;
  }

  /**
   * Tells the app its template's review status changed (a `template-event` callback; Gupshup's payload is
   * unconfirmed, gupshup.md §7, so the fake sends the partner API's own fields).
   */
  private async announceTemplate(template: FakePartnerTemplate) {
    const app = await this.appNamed(template.appId);
    if (!app) return;
    const { id, elementName, languageCode, category, status, reason } = template;
    await this.callback(app, 'template-event', { id, elementName, languageCode, category, status, reason });
  }

  private partnerFailure(call: PartnerCall) {
    return this.partnerFailures.get(call)?.shift();
  }

  private keepTemplate(template: FakePartnerTemplate, reviewDueAt?: Date) {
    return this.state.saveTemplate('gupshup', template.appId, template.id, template, reviewDueAt);
  }

  /** The fake "Meta review": approved, or rejected when the body says so; kept, then told to the app. */
  private scheduleReview(template: FakePartnerTemplate, delayMs: number) {
    this.timers.later(delayMs, async () => {
      try {
        if (template.status !== 'PENDING') return; // Already decided (the operator approved it first).
        const rejected = template.data.toLowerCase().includes(FAKE_REJECT_WORD);
        template.status = rejected ? 'REJECTED' : 'APPROVED';
        template.reason = rejected ? FAKE_REJECTION_REASON : null;
        template.modifiedOn = Date.now();
        await this.keepTemplate(template);
        await this.announceTemplate(template);
      } catch (error) {
        this.options.log?.warn({ err: error, template: template.id }, 'sandbox template review not finished');
      }
    });
  }

  /** The partner account that signed in with this email and password; with no accounts configured, anyone. */
  private async partnerAccount(email: string, password: string): Promise<FakePartnerAccount | undefined> {
    if (!this.options.partners) return { email, password };
    const accounts = await this.options.partners();
    return accounts.find((account) => account.email.toLowerCase() === email.toLowerCase() && secretMatches(account.password, password));
  }

  /** Whether the signed-in account behind this partner token owns the app. */
  private async partnerOwns(email: string, appId: string): Promise<boolean> {
    if (!this.options.partners) return true;
    const account = (await this.options.partners()).find((candidate) => candidate.email.toLowerCase() === email.toLowerCase());
    return Boolean(account) && (account!.apps === undefined || account!.apps.includes(appId));
  }

  private appTokenValid(appId: string, headers: Record<string, string | undefined>) {
    const token = this.appTokens.get(appId);
    // Gupshup's pages send the app token as `Authorization` or as `token` (gupshup.md §1).
    return Boolean(token) && (headers.authorization === token || headers.token === token);
  }

  /** `POST /partner/account/login` (§7.1): only a partner account's email and password (or `secret`) sign in. */
  async partnerLogin(headers: Record<string, string | undefined>, form: Record<string, string>) {
    this.requests.push({ method: 'POST', path: '/partner/account/login', headers, form });
    const failure = this.partnerFailure('login');
    if (failure) return failure;
    const password = form.password ?? form.secret;
    if (!form.email || !password) return { status: 400, body: { status: 'error', message: 'Invalid email or password' } };
    const account = await this.partnerAccount(form.email, password);
    if (!account) return unauthorised;
    const token = `fake-partner-jwt.${randomUUID()}`;
    this.partnerTokens.set(token, account.email);
    return {
      status: 200,
      body: { token, id: 1203, name: 'sandbox', email: account.email, admin: true, billingType: 'PREPAID', enableWallet: true, terms_read: true },
    };
  }

  /** `GET /partner/app/{appId}/token` (§7.2), idempotent per app; only for an app of the signed-in account. */
  async partnerAppToken(appId: string, headers: Record<string, string | undefined>) {
    this.requests.push({ method: 'GET', path: `/partner/app/${appId}/token`, headers, form: {} });
    const failure = this.partnerFailure('token');
    if (failure) return failure;
    const partnerToken = headers.authorization ?? headers.token;
    const email = partnerToken ? this.partnerTokens.get(partnerToken) : undefined;
    if (!email) return unauthorised;
    if (!(await this.appNamed(appId))) return { status: 400, body: { status: 'error', message: 'Invalid App ID' } };
    if (!(await this.partnerOwns(email, appId))) return unauthorised;
    let token = this.appTokens.get(appId);
    if (!token) {
      token = `sk_${randomUUID().replace(/-/g, '')}`;
      this.appTokens.set(appId, token);
    }
    const now = Date.now();
    return {
      status: 200,
      body: { status: 'success', token: { token, authoriserId: appId, requestorId: appId, createdOn: now, modifiedOn: now, expiresOn: 0, active: true } },
    };
  }

  /** `POST /partner/app/{appId}/templates` (§7.4): stored PENDING, then reviewed after a delay. */
  async partnerCreateTemplate(appId: string, headers: Record<string, string | undefined>, form: Record<string, string>) {
    this.requests.push({ method: 'POST', path: `/partner/app/${appId}/templates`, headers, form });
    if (!this.appTokenValid(appId, headers)) return unauthorised;
    const failure = this.partnerFailure('create');
    if (failure) return failure;
    const bad = (message: string) => ({ status: 400, body: { status: 'error', message } });
    const elementName = form.elementName ?? '';
    if (!/^[a-z0-9_]{1,180}$/.test(elementName)) return bad('Invalid elementName provided');
    if (!form.languageCode) return bad('languageCode is required');
    if (!partnerCategories.includes(form.category ?? '')) return bad('Invalid category provided. Supported categories are MARKETING, UTILITY, AUTHENTICATION');
    const templateType = form.templateType ?? '';
    if (!partnerTemplateTypes.includes(templateType)) return bad('Invalid templateType provided');
    const content = form.content ?? '';
    if (!content || content.length > 1024) return bad('content is required and must be at most 1024 characters');
    if (!form.example) return bad('example is required');
    if ((form.footer ?? '').length > 60) return bad('footer must be at most 60 characters');
    if ((form.header ?? '').length > 60) return bad('header must be at most 60 characters');
    let buttons: unknown[] = [];
    if (form.buttons) {
      try {
        buttons = JSON.parse(form.buttons) as unknown[];
        if (!Array.isArray(buttons)) throw new Error('buttons');
      } catch {
        return bad('Invalid buttons provided');
      }
    }
    if (['IMAGE', 'VIDEO', 'DOCUMENT'].includes(templateType) && !this.mediaHandles.has(form.exampleMedia ?? '')) return bad('Invalid exampleMedia handle');
    const templates = this.partnerTemplates.get(appId) ?? [];
    if (templates.some((existing) => existing.elementName === elementName && existing.languageCode === form.languageCode)) {
      return bad('Template Already exists with same namespace and elementName and languageCode');
    }
    const now = Date.now();
    const template: FakePartnerTemplate = {
      id: randomUUID(),
      appId,
      elementName,
      externalId: String(now).slice(-10),
      category: form.category!,
      languageCode: form.languageCode,
      languagePolicy: 'deterministic',
      templateType,
      vertical: form.vertical ?? '',
      status: 'PENDING',
      reason: null,
      quality: 'UNKNOWN',
      data: content,
      meta: JSON.stringify({ example: form.example }),
      containerMeta: JSON.stringify({
        data: content,
        buttons,
        header: form.header,
        footer: form.footer,
        sampleText: form.example,
        enableSample: form.enableSample === 'true',
      }),
      ...(buttons.length > 0 ? { buttonSupported: 'QR' } : {}),
      createdOn: now,
      modifiedOn: now,
    };
    await this.keepTemplate(template, new Date(now + this.templateReviewMs));
    templates.push(template);
    this.partnerTemplates.set(appId, templates);
    this.scheduleReview(template, this.templateReviewMs);
    const { id, elementName: name, languageCode, category, status, data, meta, createdOn, modifiedOn } = template;
    return {
      status: 200,
      body: { status: 'success', template: { id, elementName: name, languageCode, category, templateType, status, data, meta, createdOn, modifiedOn } },
    };
  }

  /** `GET /partner/app/{appId}/templates` (§7.5). */
  partnerListTemplates(appId: string, headers: Record<string, string | undefined>) {
    this.requests.push({ method: 'GET', path: `/partner/app/${appId}/templates`, headers, form: {} });
    if (!this.appTokenValid(appId, headers)) return unauthorised;
    const failure = this.partnerFailure('list');
    if (failure) return failure;
    return { status: 200, body: { status: 'success', templates: this.templatesOf(appId) } };
  }

  /** `DELETE /partner/app/{appId}/template/{elementName}[/{templateId}]` (§7.6). */
  async partnerDeleteTemplate(appId: string, headers: Record<string, string | undefined>, elementName: string, templateId?: string) {
    this.requests.push({ method: 'DELETE', path: `/partner/app/${appId}/template/${elementName}${templateId ? `/${templateId}` : ''}`, headers, form: {} });
    if (!this.appTokenValid(appId, headers)) return unauthorised;
    const failure = this.partnerFailure('delete');
    if (failure) return failure;
    const templates = this.templatesOf(appId);
    const named = templates.filter((template) => template.elementName === elementName);
    if (named.length === 0) return { status: 400, body: { status: 'error', message: 'Template Does not exists.' } };
    if (templateId && !named.some((template) => template.id === templateId)) {
      return { status: 403, body: { status: 'error', message: 'Template ID and template name does not match' } };
    }
    const deleted = named.filter((template) => templateId === undefined || template.id === templateId);
    await this.state.deleteTemplates(
      'gupshup',
      deleted.map((template) => template.id),
    );
    this.partnerTemplates.set(
      appId,
      templates.filter((template) => !deleted.includes(template)),
    );
    return { status: 200, body: { status: 'success' } };
  }

  /** `POST /partner/app/{appId}/upload/media` (§7.7): a sample for a media header → handle id. */
  partnerUploadMedia(appId: string, headers: Record<string, string | undefined>, upload: { fileType?: string; fileName?: string; size: number }) {
    this.requests.push({
      method: 'POST',
      path: `/partner/app/${appId}/upload/media`,
      headers,
      form: { file_type: upload.fileType ?? '', file: upload.fileName ?? '' },
    });
    if (!this.appTokenValid(appId, headers)) return unauthorised;
    const failure = this.partnerFailure('upload');
    if (failure) return failure;
    if (upload.size === 0) return { status: 400, body: { status: 'error', message: 'file is required' } };
    if (!sampleMediaTypes.includes(upload.fileType ?? '')) return { status: 400, body: { status: 'error', message: 'Unsupported file_type' } };
    const handle = `4::${Buffer.from(upload.fileType!).toString('base64')}:ARb${randomUUID().replace(/-/g, '')}`;
    this.mediaHandles.set(handle, { fileType: upload.fileType!, size: upload.size });
    return { status: 200, body: { status: 'success', handleId: { message: handle } } };
  }

  /**
   * `POST /partner/app/{appId}/v3/message` (§2.2) with Meta's mark-as-read body (meta-cloud.md §2.7). Only
   * read receipts are served here. Like WhatsApp, it marks that customer message and every earlier one read.
   */
  async partnerMarkRead(appId: string, headers: Record<string, string | undefined>, body: unknown) {
    this.requests.push({ method: 'POST', path: `/partner/app/${appId}/v3/message`, headers, form: {}, json: body });
    if (!this.appTokenValid(appId, headers)) return unauthorised;
    const failure = this.partnerFailure('mark-read');
    if (failure) return failure;
    const bad = (message: string) => ({ status: 400, body: { status: 'error', message } });
    if (!headers['content-type']?.startsWith('application/json')) return bad('Content-Type must be application/json');
    const receipt = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
    if (receipt.messaging_product !== 'whatsapp') return bad('messaging_product must be whatsapp');
    if (receipt.status !== 'read') return bad('Only read receipts are supported by this sandbox');
    if (typeof receipt.message_id !== 'string' || !(await this.store.markCustomerMessagesRead(appId, receipt.message_id))) return bad('Invalid message_id');
    return { status: 200, body: { success: true } };
  }

  /** Keeps a customer upload for the business to download (the store drops the oldest past its cap); answers its URL. */
  async storeFile(data: Buffer, contentType: string, name?: string): Promise<string> {
    const id = randomUUID();
    await this.store.keepUpload({ id, data, contentType, ...(name ? { name } : {}) });
    return `${this.options.publicUrl()}/files/${id}`;
  }

  file(id: string): Promise<FakeUpload | undefined> {
    return this.store.upload(id);
  }

  /** The stored upload behind a URL this fake handed out (storeFile), and only such a URL. */
  async fileAt(url: string): Promise<FakeUpload | undefined> {
    const prefix = `${this.options.publicUrl()}/files/`;
    return url.startsWith(prefix) ? this.store.upload(url.slice(prefix.length)) : undefined;
  }

  /** The customer writes: builds Gupshup's inbound `message` callback and delivers it to the app. */
  async customerSends(input: CustomerMessage): Promise<{ id: string }> {
    const app = await this.appNamed(input.appName);
    if (!app) throw new Error(`unknown sandbox app ${input.appName}`);
    const id = `wamid.${randomUUID().replace(/-/g, '')}`;
    const inner = inboundPayloadOf(input);
    const payload: Record<string, unknown> = {
      id,
      source: input.group ? input.group.id : input.phone,
      type: input.kind,
      payload: inner,
      sender: { phone: input.phone, name: input.name ?? input.phone, country_code: input.phone.slice(0, 2), dial_code: input.phone.slice(2) },
      ...(input.group ? { group: input.group } : {}),
      ...(input.replyTo ? { context: { id: input.replyTo.whatsappId, gsId: input.replyTo.gsId } } : {}),
    };
    const conversationPhone = input.group ? input.group.id : input.phone;
    const message: FakeConversationMessage = {
      id,
      direction: 'from_customer',
      type: input.kind,
      body: inner,
      status: 'sent',
      participant: input.group ? { phone: input.phone, name: input.name } : undefined,
      createdAt: new Date().toISOString(),
    };
    await this.store.append(app.appName, conversationPhone, message);
    // Delivered once the business's server took it; a read receipt may already have come meanwhile.
    if (await this.callback(app, 'message', payload)) await this.store.setStatus(id, 'delivered', 'sent');
    return { id };
  }

  /** One message of the customer's conversation with the app (or of the group's), by its phone-side id. */
  conversationMessage(appName: string, conversation: string, id: string): Promise<FakeConversationMessage | undefined> {
    return this.store.find(appName, conversation, id);
  }

  /**
   * The customer changes an earlier message in Gupshup's formats: a reaction is a v2 `message` of type `reaction`
   * naming the message by its WhatsApp id (and Gupshup's, for a business message), a deletion a v2 `deleted`
   * message-event. Gupshup has no v2 edit: it comes as a v3 callback in Meta's envelope, with `gs_app_id`.
   */
  async customerChanges(input: ChangingCustomer & { appName: string; target: FakeConversationMessage; change: CustomerChange }) {
    const app = await this.appNamed(input.appName);
    if (!app) throw new Error(`unknown sandbox app ${input.appName}`);
    const { target, change } = input;
    const body = changedBody(target.body, change);
    await this.store.setBody(app.appName, input.group ? input.group.id : input.phone, target.id, body);
    if (change.kind === 'reaction') {
      const inner = { id: whatsappIdOf(target), ...(target.direction === 'to_customer' ? { gsId: target.id } : {}), emoji: change.emoji ?? '' };
      await this.callback(app, 'message', {
        id: `wamid.${randomUUID().replace(/-/g, '')}`,
        source: input.group ? input.group.id : input.phone,
        type: 'reaction',
        payload: inner,
        sender: { phone: input.phone, name: input.name ?? input.phone, country_code: input.phone.slice(0, 2), dial_code: input.phone.slice(2) },
        ...(input.group ? { group: input.group } : {}),
      });
    } else if (change.kind === 'delete') {
      await this.callback(app, 'message-event', { id: target.id, type: 'deleted', destination: input.phone, payload: { ts: Math.floor(Date.now() / 1000) } });
    } else {
      await this.metaFormatCallback(
        app,
        {
          from: input.phone,
          id: `wamid.${randomUUID().replace(/-/g, '')}`,
          timestamp: String(Math.floor(Date.now() / 1000)),
          type: 'edit',
          edit: { original_message_id: target.id, message: { type: 'text', text: { body: change.text } } },
        },
        input,
      );
    }
    return { ...target, body };
  }

  /** A v3 callback: one inbound message in Meta's envelope, as Gupshup relays it with its app's id. */
  private async metaFormatCallback(app: FakeApp, message: Record<string, unknown>, customer: ChangingCustomer): Promise<boolean> {
    // The fake's apps have no WABA or Meta number id of their own: the app's number stands for both.
    const value = {
      messaging_product: 'whatsapp',
      metadata: { display_phone_number: app.sourceNumber, phone_number_id: app.sourceNumber },
      contacts: [{ profile: { name: customer.name ?? customer.phone }, wa_id: customer.phone }],
      messages: [message],
    };
    const envelope = {
      object: 'whatsapp_business_account',
      gs_app_id: app.appName,
      entry: [{ id: app.sourceNumber, changes: [{ field: 'messages', value }] }],
    };
    return this.post(app, envelope, 'edit');
  }
}

export type CustomerMessage = {
  appName: string;
  phone: string;
  name?: string;
  group?: { id: string; name?: string };
  replyTo?: { whatsappId?: string; gsId?: string };
} & (
  | { kind: 'text'; text: string }
  | { kind: 'image' | 'video' | 'audio' | 'file' | 'sticker'; url: string; contentType: string; caption?: string; fileName?: string }
  /** `placeName` rather than `name`, which is who writes. */
  | { kind: 'location'; latitude: number; longitude: number; placeName?: string; address?: string }
  | { kind: 'button_reply'; title: string; id?: string; postbackText?: string }
  | { kind: 'quick_reply'; text: string; postbackText?: string }
  | { kind: 'list_reply'; title: string; id?: string; postbackText?: string; description?: string }
  | { kind: 'unknown_type'; data: Record<string, unknown> }
);

function inboundPayloadOf(input: CustomerMessage): Record<string, unknown> {
  switch (input.kind) {
    case 'text':
      return { text: input.text };
    case 'image':
    case 'video':
    case 'audio':
    case 'file':
    case 'sticker':
      return {
        url: input.url,
        contentType: input.contentType,
        urlExpiry: Date.now() + 7 * 86_400_000,
        ...(input.caption ? { caption: input.caption } : {}),
        ...(input.fileName ? { name: input.fileName } : {}),
      };
    case 'location':
      return {
        latitude: String(input.latitude),
        longitude: String(input.longitude),
        ...(input.placeName ? { name: input.placeName } : {}),
        ...(input.address ? { address: input.address } : {}),
      };
    case 'button_reply':
      return { title: input.title, id: input.id ?? '', reply: `${input.title} 1`, ...(input.postbackText ? { postbackText: input.postbackText } : {}) };
    case 'quick_reply':
      return { text: input.text, type: 'button', ...(input.postbackText ? { postbackText: input.postbackText } : {}) };
    case 'list_reply':
      return {
        title: input.title,
        id: input.id ?? '',
        reply: `${input.title} 1`,
        postbackText: input.postbackText ?? input.title,
        description: input.description ?? '',
      };
    case 'unknown_type':
      return input.data;
  }
}

/**
 * Gupshup's HTTP surface over a FakeGupshup: `/wa/api/v1/msg`, `/wa/api/v1/template/msg`, media
 * files, and the partner API's login, app token, templates and template media samples.
 */
export function fakeGupshupRoutes(fake: FakeGupshup): FastifyPluginAsync {
  return async (app: FastifyInstance) => {
    // Inside the main app multipart is already there; a standalone fake server brings its own.
    if (!app.hasContentTypeParser('multipart/form-data')) await app.register(multipart);
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });
    for (const path of ['/wa/api/v1/msg', '/wa/api/v1/template/msg']) {
      app.post(path, { config: { access: 'public' } }, async (request, reply) => {
        const form = (request.body ?? {}) as Record<string, string>;
        const headers = { apikey: request.headers.apikey as string | undefined, api_key: request.headers.api_key as string | undefined };
        const answer = await fake.handleSend(path, headers, form);
        return reply.status(answer.status).send(answer.body);
      });
    }
    registerPartnerRoutes(app, fake);
    app.get('/files/:id', { config: { access: 'public' } }, async (request, reply) => {
      const file = await fake.file((request.params as { id: string }).id);
      if (!file) return reply.status(404).send({ status: 'error', message: 'Not Found' });
      return reply.type(file.contentType).send(file.data);
    });
  };
}

function partnerHeaders(request: FastifyRequest) {
  return { authorization: request.headers.authorization, token: request.headers.token as string | undefined, 'content-type': request.headers['content-type'] };
}

function registerPartnerRoutes(app: FastifyInstance, fake: FakeGupshup) {
  const config = { access: 'public' as const };
  type AppParams = { appId: string };
  app.post('/partner/account/login', { config }, async (request, reply) => {
    const answer = await fake.partnerLogin(partnerHeaders(request), (request.body ?? {}) as Record<string, string>);
    return reply.status(answer.status).send(answer.body);
  });
  app.get('/partner/app/:appId/token', { config }, async (request, reply) => {
    const answer = await fake.partnerAppToken((request.params as AppParams).appId, partnerHeaders(request));
    return reply.status(answer.status).send(answer.body);
  });
  app.post('/partner/app/:appId/templates', { config }, async (request, reply) => {
    const answer = await fake.partnerCreateTemplate(
      (request.params as AppParams).appId,
      partnerHeaders(request),
      (request.body ?? {}) as Record<string, string>,
    );
    return reply.status(answer.status).send(answer.body);
  });
  app.get('/partner/app/:appId/templates', { config }, async (request, reply) => {
    const answer = fake.partnerListTemplates((request.params as AppParams).appId, partnerHeaders(request));
    return reply.status(answer.status).send(answer.body);
  });
  app.delete('/partner/app/:appId/template/:elementName', { config }, async (request, reply) => {
    const params = request.params as AppParams & { elementName: string };
    const answer = await fake.partnerDeleteTemplate(params.appId, partnerHeaders(request), params.elementName);
    return reply.status(answer.status).send(answer.body);
  });
  app.delete('/partner/app/:appId/template/:elementName/:templateId', { config }, async (request, reply) => {
    const params = request.params as AppParams & { elementName: string; templateId: string };
    const answer = await fake.partnerDeleteTemplate(params.appId, partnerHeaders(request), params.elementName, params.templateId);
    return reply.status(answer.status).send(answer.body);
  });
  app.post('/partner/app/:appId/v3/message', { config }, async (request, reply) => {
    const answer = await fake.partnerMarkRead((request.params as AppParams).appId, partnerHeaders(request), request.body);
    return reply.status(answer.status).send(answer.body);
  });
  app.post('/partner/app/:appId/upload/media', { config }, async (request, reply) => {
    if (!request.isMultipart()) return reply.status(400).send({ status: 'error', message: 'file is required' });
    const upload: { fileType?: string; fileName?: string; size: number } = { size: 0 };
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        const data = await part.toBuffer();
        if (part.fieldname === 'file') Object.assign(upload, { fileName: part.filename, size: data.length });
      } else if (part.fieldname === 'file_type') {
        upload.fileType = String(part.value);
      }
    }
    const answer = fake.partnerUploadMedia((request.params as AppParams).appId, partnerHeaders(request), upload);
    return reply.status(answer.status).send(answer.body);
  });
}
