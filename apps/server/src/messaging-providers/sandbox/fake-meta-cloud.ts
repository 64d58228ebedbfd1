import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { RenderedTemplate } from '@embudo/contracts/http/templates';
import { secretMatches } from '../../platform/auth/secrets.ts';
import { callService } from '../../platform/outbound-http/service-http.ts';
import { FakeStatusChains, FakeTimers, HeldReviews } from './fake-timers.ts';
import { createMemoryFakeStateStore, type FakeStateStore } from './fake-state-store.ts';
import { createMemoryConversationStore, type FakeConversationMessage, type FakeConversationStore, type FakeUpload } from './conversation-store.ts';
import { changedBody, whatsappIdOf, type ChangingCustomer, type CustomerChange } from './customer-change.ts';
import { CALLBACK_TIMEOUT_MS, type CustomerMessage } from './fake-gupshup.ts';

/**
 * A faithful fake of Meta's WhatsApp Cloud API (../shared/provider/meta-cloud.md): the Graph paths under any
 * `v<major>.<minor>`, bearer tokens (190 when wrong) and `appsecret_proof`, the message bodies of §2 checked as Meta
 * checks them, `{ error: { code, … } }` refusals, and signed webhooks (`X-Hub-Signature-256` with each number's app
 * secret): inbound messages, `sent → delivered → read` statuses, `failed` with `errors[]`, and
 * `message_template_status_update`. It refuses free text outside the 24-hour window (131047), rate-limits past a
 * configurable rate (130429), reports numbers starting with 000 as undeliverable (131026), reviews templates
 * (approved, or rejected when the body says "rechazar"), serves media in two steps and the resumable upload, and can
 * run Meta's verification handshake against a callback. It backs the sandbox (with the sandbox phone) and tests.
 */

export interface FakeMetaNumber {
  phoneNumberId: string;
  wabaId: string;
  accessToken: string;
  /** Signs the webhooks to this number's callback. */
  appSecret: string;
  verifyToken: string;
  callbackUrl: string;
  displayPhoneNumber: string;
  /** The business's verified name. */
  label?: string;
}

export interface FakeMetaCloudOptions {
  /** The numbers the fake plays Meta for, with their credentials and callback. */
  numbers: () => Promise<FakeMetaNumber[]> | FakeMetaNumber[];
  /** Public base URL of this fake, for the media URLs it hands out. */
  publicUrl: () => string;
  statusStepMs?: number;
  templateReviewMs?: number;
  /** Messages per second per number before 130429 (Meta's default throughput is 80, meta-cloud.md §6). */
  messagesPerSecond?: number;
  store?: FakeConversationStore;
  /** Where templates and the statuses still owed are kept; in memory unless given (the app keeps them in its database). */
  state?: FakeStateStore;
  log?: { warn(obj: unknown, msg?: string): void };
}

/** One status the fake still owes for a message it took, as kept in its state store. */
interface MetaStatus {
  phoneNumberId: string;
  messageId: string;
  customer: string;
  state: 'sent' | 'delivered' | 'read' | 'failed';
  /** The status's other fields (pricing, errors). */
  extra: Json;
}

export interface FakeMetaRequest {
  method: string;
  path: string;
  headers: Record<string, string | undefined>;
  query: Record<string, string>;
  json?: unknown;
}

export interface FakeMetaTemplate {
  id: string;
  wabaId: string;
  name: string;
  language: string;
  category: string;
  status: 'PENDING' | 'APPROVED' | 'REJECTED' | 'PAUSED' | 'DISABLED';
  rejected_reason: string;
  components: Array<Record<string, unknown>>;
}

/** The fake reviewer rejects a body containing this word. */
export const FAKE_META_REJECT_WORD = 'rechazar';
export const FAKE_META_REJECTION_REASON = 'INVALID_FORMAT';
/** Destinations starting with this prefix are not on WhatsApp (131026 in the `failed` status). */
export const FAKE_META_UNKNOWN_NUMBER_PREFIX = '000';
/** The one app every token of the fake belongs to (`GET /app`), which owns the resumable uploads. */
export const FAKE_META_APP_ID = '1000000000000001';

const WINDOW_MS = 24 * 60 * 60 * 1000;
const mediaKinds = ['image', 'video', 'audio', 'document', 'sticker'] as const;
const messageTypes = ['text', ...mediaKinds, 'location', 'contacts', 'reaction', 'interactive', 'template'];

type Answer = { status: number; body: unknown };
type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

/** Meta's error envelope (meta-cloud.md §2.8). */
function graphError(status: number, code: number, message: string, details?: string, type = 'OAuthException'): Answer {
  return {
    status,
    body: {
      error: {
        message: `(#${code}) ${message}`,
        type,
        code,
        ...(details ? { error_data: { messaging_product: 'whatsapp', details } } : {}),
        fbtrace_id: randomBytes(9).toString('base64url'),
      },
    },
  };
}
const invalidParameter = (details: string) => graphError(400, 100, 'Invalid parameter', details);
const expiredToken = () => graphError(401, 190, 'Error validating access token: Session has expired or the token is invalid.', undefined, 'OAuthException');
const unknownObject = (id: string) =>
  graphError(
    400,
    100,
    `Unsupported request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
    undefined,
    'GraphMethodException',
  );

const wamid = () => `wamid.${randomBytes(18).toString('base64url')}`;
const conversationKey = (phoneNumberId: string) => `meta:${phoneNumberId}`;
const seconds = () => String(Math.floor(Date.now() / 1000));

/** A customer's message on the phone, without the Gupshup app name: the Meta number says whose it is. */
export type MetaCustomerMessage = (CustomerMessage extends infer Message ? (Message extends unknown ? Omit<Message, 'appName'> : never) : never) & {
  phoneNumberId: string;
};

export class FakeMetaCloud {
  readonly requests: FakeMetaRequest[] = [];
  /** Every URL called, as called (with its Graph version), newest last. */
  readonly urls: string[] = [];
  private readonly store: FakeConversationStore;
  private readonly timers = new FakeTimers();
  private readonly state: FakeStateStore;
  private readonly statuses: FakeStatusChains<MetaStatus>;
  private readonly heldReviews = new HeldReviews<FakeMetaTemplate>();
  private readonly templates: FakeMetaTemplate[] = [];
  private readonly uploadSessions = new Map<string, { fileType: string; length: number }>();
  private readonly handles = new Set<string>();
  private readonly recentSends = new Map<string, number[]>();
  private failures: Answer[] = [];
  private laterFailures: Array<{ code: number; title: string }> = [];
  private templateSeq = 1_700_000_000_000;
  templateReviewMs: number;
  private rate: number;

  constructor(private readonly options: FakeMetaCloudOptions) {
    this.templateReviewMs = options.templateReviewMs ?? 1500;
    this.rate = options.messagesPerSecond ?? 80;
    this.store = options.store ?? createMemoryConversationStore();
    this.state = options.state ?? createMemoryFakeStateStore();
    this.statuses = new FakeStatusChains({
      fake: 'meta',
      store: this.state,
      timers: this.timers,
      play: (status) => this.playStatus(status),
      stepMs: options.statusStepMs,
      log: options.log,
    });
  }

  /** Reads the templates kept by an earlier run (before the fake serves anything). */
  async load(): Promise<void> {
    for (const { template, reviewDueAt } of await this.state.templates<FakeMetaTemplate>('meta')) {
      this.templates.push(template);
      this.templateSeq = Math.max(this.templateSeq, Number(template.id) || 0);
      if (reviewDueAt && template.status === 'PENDING') this.heldReviews.hold(template, reviewDueAt);
    }
  }

  /** Finishes what an earlier run left under way: reviews, and the statuses still owed (once callbacks reach the app). */
  async resume(): Promise<void> {
    this.heldReviews.release((template, delayMs) => this.scheduleReview(template, delayMs));
    await this.statuses.resume();
  }

  private keepTemplate(template: FakeMetaTemplate, reviewDueAt?: Date) {
    return this.state.saveTemplate('meta', template.wabaId, template.id, template, reviewDueAt);
  }

  /** The fake review: approved, or rejected when the body says so; kept, then told to the WABA's numbers. */
  private scheduleReview(template: FakeMetaTemplate, delayMs: number) {
    this.timers.later(delayMs, async () => {
      try {
        if (template.status !== 'PENDING') return; // Already decided (the operator approved it first).
        const body = template.components.find((component) => component.type === 'BODY');
        const rejected = (text(body?.text) ?? '').toLowerCase().includes(FAKE_META_REJECT_WORD);
        template.status = rejected ? 'REJECTED' : 'APPROVED';
        template.rejected_reason = rejected ? FAKE_META_REJECTION_REASON : 'NONE';
        await this.keepTemplate(template);
        await this.announceTemplate(template);
      } catch (error) {
        this.options.log?.warn({ err: error, template: template.id }, 'fake Meta template review not finished');
      }
    });
  }

  /** Sends per second per number before 130429; setting it starts a fresh second. */
  get messagesPerSecond() {
    return this.rate;
  }
  set messagesPerSecond(rate: number) {
    this.rate = rate;
    this.recentSends.clear();
  }

  close() {
    this.timers.clear();
  }

  /** Makes the next sends answer these Graph errors, in order (e.g. a 131056 pair rate limit). */
  failNextSends(...failures: Array<{ status: number; code: number; message?: string; details?: string }>) {
    this.failures.push(...failures.map((failure) => graphError(failure.status, failure.code, failure.message ?? 'Error', failure.details)));
  }

  /**
   * Makes the next sends be accepted and then refused in their `failed` status, in order (Meta reports errors
   * asynchronously too, meta-cloud.md §2.8: e.g. 130429 when the number's throughput was exceeded).
   */
  failNextSendsLater(...failures: Array<{ code: number; title?: string }>) {
    this.laterFailures.push(...failures.map(({ code, title }) => ({ code, title: title ?? 'Error' })));
  }

  /** What the customer's WhatsApp shows of the conversation with this number, oldest first. */
  conversation(phoneNumberId: string, customerPhone: string): Promise<FakeConversationMessage[]> {
    return this.store.list(conversationKey(phoneNumberId), customerPhone);
  }

  /** The templates a WABA holds. */
  templatesOf(wabaId: string): FakeMetaTemplate[] {
    return this.templates.filter((template) => template.wabaId === wabaId);
  }

  /** The operator's approval is the sandbox's "Meta review" too. False when the fake does not hold the template. */
  async approveTemplate(wabaId: string, templateId: string): Promise<boolean> {
    const template = this.templatesOf(wabaId).find((held) => held.id === templateId);
    if (!template) return false;
    template.status = 'APPROVED';
    template.rejected_reason = 'NONE';
    await this.keepTemplate(template);
    return true;
  }

  /** Meta moves a template (e.g. pauses it for low quality) and says so by webhook. */
  async setTemplateStatus(wabaId: string, templateId: string, status: FakeMetaTemplate['status'], reason = 'NONE') {
    const template = this.templatesOf(wabaId).find((held) => held.id === templateId);
    if (!template) return false;
    template.status = status;
    template.rejected_reason = reason;
    await this.keepTemplate(template);
    await this.announceTemplate(template);
    return true;
  }

  private async numbers() {
    return this.options.numbers();
  }

  private async numberById(phoneNumberId: string) {
    return (await this.numbers()).find((number) => number.phoneNumberId === phoneNumberId);
  }

  /** Signs and posts one webhook delivery to the number's callback; answers whether it was taken (2xx). */
  async deliver(number: FakeMetaNumber, value: Json, field = 'messages'): Promise<boolean> {
    const envelope = { object: 'whatsapp_business_account', entry: [{ id: number.wabaId, time: Math.floor(Date.now() / 1000), changes: [{ field, value }] }] };
    const raw = JSON.stringify(envelope);
    const signature = `sha256=${createHmac('sha256', number.appSecret).update(raw).digest('hex')}`;
    try {
      const response = await callService(number.callbackUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature, 'user-agent': 'facebookexternalua' },
        body: raw,
        timeoutMs: CALLBACK_TIMEOUT_MS,
      });
      if (!response.ok) this.options.log?.warn({ status: response.status, field }, 'fake Meta webhook refused');
      return response.ok;
    } catch (error) {
      this.options.log?.warn({ err: error, field }, 'fake Meta webhook failed');
      return false;
    }
  }

  /** Meta's verification of a callback URL (meta-cloud.md §3.1): true when it echoes the challenge. */
  async verifyCallback(phoneNumberId: string): Promise<boolean> {
    const number = await this.numberById(phoneNumberId);
    if (!number) return false;
    const challenge = String(Math.floor(Math.random() * 1e9));
    const url = new URL(number.callbackUrl);
    url.searchParams.set('hub.mode', 'subscribe');
    url.searchParams.set('hub.verify_token', number.verifyToken);
    url.searchParams.set('hub.challenge', challenge);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
      return response.status === 200 && (await response.text()) === challenge;
    } catch {
      return false;
    }
  }

  private metadata(number: FakeMetaNumber) {
    return { display_phone_number: number.displayPhoneNumber, phone_number_id: number.phoneNumberId };
  }

  /** Checks the bearer token (and `appsecret_proof` when sent) against a number; an error answer, or undefined when fine. */
  private authError(number: FakeMetaNumber, headers: Record<string, string | undefined>, query: Record<string, string>): Answer | undefined {
    const token = /^Bearer (.+)$/.exec(headers.authorization ?? '')?.[1];
    if (!token || !secretMatches(number.accessToken, token)) return expiredToken();
    const proof = query.appsecret_proof;
    if (proof !== undefined && proof !== createHmac('sha256', number.appSecret).update(token).digest('hex')) {
      return graphError(400, 100, 'Invalid appsecret_proof provided in the API argument', undefined, 'GraphMethodException');
    }
    return undefined;
  }

  /** A token any number holds (media and app calls are not tied to one number). */
  private async anyNumberWithToken(headers: Record<string, string | undefined>, scheme = 'Bearer') {
    const token = new RegExp(`^${scheme} (.+)$`).exec(headers.authorization ?? '')?.[1];
    if (!token) return undefined;
    return (await this.numbers()).find((number) => secretMatches(number.accessToken, token));
  }

  private record(method: string, path: string, headers: Record<string, string | undefined>, query: Record<string, string>, json?: unknown) {
    this.requests.push({ method, path, headers, query, ...(json !== undefined ? { json } : {}) });
  }

  /** `POST /{phone-number-id}/messages`: a message (§2) or a read receipt (§2.7). */
  async postMessages(phoneNumberId: string, headers: Record<string, string | undefined>, query: Record<string, string>, body: unknown): Promise<Answer> {
    this.record('POST', `/${phoneNumberId}/messages`, headers, query, body);
    const number = await this.numberById(phoneNumberId);
    if (!number) return unknownObject(phoneNumberId);
    const refused = this.authError(number, headers, query);
    if (refused) return refused;
    if (!isObject(body)) return invalidParameter('The request body must be a JSON object.');
    if (body.messaging_product !== 'whatsapp') return invalidParameter('messaging_product must be whatsapp.');
    if (body.status === 'read') return this.readReceipt(number, body);
    const failure = this.failures.shift();
    if (failure) return failure;
    if (this.overRate(phoneNumberId)) return graphError(400, 130429, 'Rate limit hit', 'Cloud API message throughput has been reached.');

    const to = text(body.to) ?? '';
    if (!/^\+?\d{6,20}$/.test(to)) return invalidParameter('The parameter to is invalid.');
    const type = text(body.type) ?? 'text';
    if (!messageTypes.includes(type)) return invalidParameter(`Unsupported message type: ${type}.`);
    const problem = this.bodyProblem(type, body);
    if (problem) return invalidParameter(problem);
    const customer = to.replace(/^\+/, '');

    let rendered: RenderedTemplate | undefined;
    let templateFailure: { code: number; title: string } | undefined;
    if (type === 'template') {
      const found = this.templateFor(number, body.template as Json);
      if ('error' in found) return found.error;
      if ('failure' in found) templateFailure = found.failure;
      else rendered = found.rendered;
    } else if (!(await this.windowOpen(number, customer))) {
      return graphError(
        400,
        131047,
        'Re-engagement message',
        'Message failed to send because more than 24 hours have passed since the customer last replied to this number.',
      );
    }

    const id = wamid();
    const message: FakeConversationMessage = {
      id,
      whatsappId: id,
      direction: 'to_customer',
      type: type === 'template' ? 'template' : phoneType(body),
      body: phoneBody(body),
      status: 'submitted',
      ...(rendered ? { template: rendered } : {}),
      createdAt: new Date().toISOString(),
    };
    await this.store.append(conversationKey(phoneNumberId), customer, message);
    const undeliverable = customer.startsWith(FAKE_META_UNKNOWN_NUMBER_PREFIX) ? { code: 131026, title: 'Message undeliverable' } : undefined;
    await this.playStatuses(number, message, customer, this.laterFailures.shift() ?? undeliverable ?? templateFailure);
    return {
      status: 200,
      body: { messaging_product: 'whatsapp', contacts: [{ input: to, wa_id: customer }], messages: [{ id, message_status: 'accepted' }] },
    };
  }

  /** Past `messagesPerSecond` sends in the last second on this number: Meta's throughput limit. */
  private overRate(phoneNumberId: string) {
    const now = Date.now();
    const recent = (this.recentSends.get(phoneNumberId) ?? []).filter((at) => now - at < 1000);
    const over = recent.length >= this.rate;
    if (!over) recent.push(now);
    this.recentSends.set(phoneNumberId, recent);
    return over;
  }

  /** The customer wrote in the last 24 hours (§5): their newest message on the phone says when. */
  private async windowOpen(number: FakeMetaNumber, customer: string) {
    const conversation = await this.store.list(conversationKey(number.phoneNumberId), customer);
    const last = conversation.filter((message) => message.direction === 'from_customer').at(-1);
    return Boolean(last && Date.now() - new Date(last.createdAt).getTime() < WINDOW_MS);
  }

  /** What Meta refuses in a message body (§2.1–§2.6), in its own words. */
  private bodyProblem(type: string, body: Json): string | undefined {
    const inner = body[type];
    if (type === 'contacts') return Array.isArray(inner) && inner.length > 0 ? undefined : 'contacts must be a non-empty array.';
    if (!isObject(inner)) return `The parameter ${type} is required.`;
    if (isObject(body.context) && !text(body.context.message_id)) return 'context.message_id is required.';
    switch (type) {
      case 'text': {
        const message = text(inner.body);
        if (!message) return 'text.body is required.';
        return message.length > 4096 ? 'text.body is too long (4096 characters at most).' : undefined;
      }
      case 'image':
      case 'video':
      case 'audio':
      case 'document':
      case 'sticker':
        if (!text(inner.link) && !text(inner.id)) return `${type} needs an id or a link.`;
        if (inner.caption !== undefined && (type === 'sticker' || type === 'audio')) return `${type} does not take a caption.`;
        return undefined;
      case 'location':
        return typeof inner.latitude === 'number' && typeof inner.longitude === 'number' ? undefined : 'location needs numeric latitude and longitude.';
      case 'interactive':
        return interactiveProblem(inner);
      case 'template':
        return text(inner.name) && isObject(inner.language) && text(inner.language.code) ? undefined : 'template needs a name and language.code.';
      default:
        return undefined;
    }
  }

  /** The approved template a send names, rendered with its parameters, or Meta's refusal. */
  private templateFor(number: FakeMetaNumber, sent: Json): { rendered: RenderedTemplate } | { error: Answer } | { failure: { code: number; title: string } } {
    const language = isObject(sent.language) ? text(sent.language.code) : undefined;
    const template = this.templatesOf(number.wabaId).find((held) => held.name === sent.name && held.language === language);
    if (!template || template.status === 'REJECTED' || template.status === 'PENDING') {
      return {
        error: graphError(404, 132001, 'Template name does not exist in the translation', `template name (${String(sent.name)}) does not exist in ${language}`),
      };
    }
    // Meta accepts the send and reports a paused or disabled template in the failed status.
    if (template.status === 'PAUSED') return { failure: { code: 132015, title: 'Template is Paused' } };
    if (template.status === 'DISABLED') return { failure: { code: 132016, title: 'Template is Disabled' } };
    const components = Array.isArray(sent.components) ? sent.components.filter(isObject) : [];
    const bodyParams = (components.find((component) => component.type === 'body')?.parameters as Json[] | undefined) ?? [];
    const bodyText = text(template.components.find((component) => component.type === 'BODY')?.text) ?? '';
    const expected = new Set([...bodyText.matchAll(/\{\{\s*(\d+)\s*\}\}/g)].map((match) => match[1])).size;
    if (bodyParams.length !== expected) {
      return {
        error: graphError(
          400,
          132000,
          'Number of parameters does not match the expected number of params',
          `body: number of localizable_params (${bodyParams.length}) does not match the expected number of params (${expected})`,
        ),
      };
    }
    const header = template.components.find((component) => component.type === 'HEADER');
    const headerParam = (components.find((component) => component.type === 'header')?.parameters as Json[] | undefined)?.[0];
    const format = text(header?.format);
    const mediaHeader = format === 'IMAGE' || format === 'VIDEO' || format === 'DOCUMENT';
    if (mediaHeader && !headerParam)
      return { error: graphError(400, 132012, 'Parameter format does not match format in the created template', 'header: media is required') };
    const footer = text(template.components.find((component) => component.type === 'FOOTER')?.text);
    const buttons = (template.components.find((component) => component.type === 'BUTTONS')?.buttons as Json[] | undefined) ?? [];
    const headerLink = headerParam && format ? text((headerParam[format.toLowerCase()] as Json | undefined)?.link) : undefined;
    return {
      rendered: {
        name: template.name,
        ...(mediaHeader
          ? { header: { type: format, url: headerLink } }
          : header && text(header.text)
            ? { header: { type: 'TEXT', text: text(header.text)! } }
            : {}),
        body: bodyText.replace(/\{\{\s*(\d+)\s*\}\}/g, (whole, n: string) => text(bodyParams[Number(n) - 1]?.text) ?? whole),
        ...(footer ? { footer } : {}),
        buttons: buttons.map((button) => ({
          type: text(button.type) ?? 'QUICK_REPLY',
          text: text(button.text) ?? '',
          ...(text(button.url) ? { url: text(button.url) } : {}),
          ...(text(button.phone_number) ? { phone_number: text(button.phone_number) } : {}),
        })),
      },
    };
  }

  /** Plays the customer's phone: the statuses of one message the business sent, each a signed webhook (kept before the send is answered). */
  private async playStatuses(number: FakeMetaNumber, message: FakeConversationMessage, customer: string, failure?: { code: number; title: string }) {
    const status = (state: MetaStatus['state'], extra: Json = {}): MetaStatus => ({
      phoneNumberId: number.phoneNumberId,
      messageId: message.id,
      customer,
      state,
      extra,
    });
    if (failure) {
      const errors = [{ code: failure.code, title: failure.title, message: failure.title, error_data: { details: failure.title } }];
      await this.statuses.start(message.id, this.statuses.stepMs, [status('failed', { errors })]);
      return;
    }
    const pricing = { billable: true, pricing_model: 'PMP', category: message.type === 'template' ? 'utility' : 'service' };
    await this.statuses.start(
      message.id,
      this.statuses.stepMs,
      (['sent', 'delivered', 'read'] as const).map((state) => status(state, state === 'read' ? {} : { pricing })),
    );
  }

  private async playStatus(status: MetaStatus): Promise<boolean> {
    await this.store.setStatus(status.messageId, status.state);
    const number = await this.numberById(status.phoneNumberId);
    if (!number) return true;
    return this.deliver(number, {
      messaging_product: 'whatsapp',
      metadata: this.metadata(number),
      statuses: [{ id: status.messageId, status: status.state, timestamp: seconds(), recipient_id: status.customer, ...status.extra }],
    });
  }

  private async readReceipt(number: FakeMetaNumber, body: Json): Promise<Answer> {
    const id = text(body.message_id);
    if (!id || !(await this.store.markCustomerMessagesRead(conversationKey(number.phoneNumberId), id))) return invalidParameter('Invalid message_id.');
    return { status: 200, body: { success: true } };
  }

  /** `GET /{id}`: a phone number's details (Probar conexión) or an inbound media's URL (§3.4, first step). */
  async getObject(id: string, headers: Record<string, string | undefined>, query: Record<string, string>): Promise<Answer> {
    this.record('GET', `/${id}`, headers, query);
    const number = await this.numberById(id);
    if (number) {
      const refused = this.authError(number, headers, query);
      if (refused) return refused;
      return { status: 200, body: { id, display_phone_number: number.displayPhoneNumber, verified_name: number.label ?? 'Empresa', quality_rating: 'GREEN' } };
    }
    const owner = await this.anyNumberWithToken(headers);
    if (!owner) return expiredToken();
    const file = await this.store.upload(id);
    if (!file) return unknownObject(id);
    return {
      status: 200,
      body: {
        messaging_product: 'whatsapp',
        url: `${this.options.publicUrl()}/media-download/${id}`,
        mime_type: file.contentType,
        sha256: createHash('sha256').update(file.data).digest('hex'),
        file_size: file.data.length,
        id,
      },
    };
  }

  /** The media URL's bytes, for a holder of a token (§3.4, second step). */
  async mediaDownload(id: string, headers: Record<string, string | undefined>): Promise<{ status: number; file?: FakeUpload }> {
    this.record('GET', `/media-download/${id}`, headers, {});
    if (!(await this.anyNumberWithToken(headers))) return { status: 401 };
    const file = await this.store.upload(id);
    return file ? { status: 200, file } : { status: 404 };
  }

  /** `GET /app`: the app the token belongs to (it owns the resumable uploads). */
  async getApp(headers: Record<string, string | undefined>, query: Record<string, string>): Promise<Answer> {
    this.record('GET', '/app', headers, query);
    if (!(await this.anyNumberWithToken(headers))) return expiredToken();
    return { status: 200, body: { id: FAKE_META_APP_ID, name: 'Embudo Sandbox' } };
  }

  /** `POST /{app-id}/uploads` opens a resumable upload session. */
  async openUpload(appId: string, headers: Record<string, string | undefined>, query: Record<string, string>): Promise<Answer> {
    this.record('POST', `/${appId}/uploads`, headers, query);
    if (!(await this.anyNumberWithToken(headers))) return expiredToken();
    if (appId !== FAKE_META_APP_ID) return unknownObject(appId);
    const length = Number(query.file_length);
    if (!Number.isInteger(length) || length <= 0) return invalidParameter('file_length is required.');
    if (!['image/jpeg', 'image/png', 'video/mp4', 'application/pdf'].includes(query.file_type ?? '')) return invalidParameter('file_type is not supported.');
    const session = `upload:${randomBytes(12).toString('base64url')}`;
    this.uploadSessions.set(session, { fileType: query.file_type!, length });
    return { status: 200, body: { id: `${session}?sig=${randomBytes(8).toString('hex')}` } };
  }

  /** `POST /upload:<session>` with `Authorization: OAuth <token>` and `file_offset`: the bytes; answers the handle `h`. */
  async upload(session: string, headers: Record<string, string | undefined>, bytes: Buffer): Promise<Answer> {
    this.record('POST', `/${session}`, headers, {});
    if (!(await this.anyNumberWithToken(headers, 'OAuth'))) return expiredToken();
    const open = this.uploadSessions.get(session);
    if (!open) return unknownObject(session);
    if (headers.file_offset !== '0') return invalidParameter('file_offset must be 0 for a new upload.');
    if (bytes.length !== open.length) return invalidParameter(`The file has ${bytes.length} bytes, not ${open.length}.`);
    this.uploadSessions.delete(session);
    const handle = `4::${Buffer.from(open.fileType).toString('base64')}:${randomBytes(24).toString('base64url')}`;
    this.handles.add(handle);
    return { status: 200, body: { h: handle } };
  }

  private async wabaNumber(
    wabaId: string,
    headers: Record<string, string | undefined>,
    query: Record<string, string>,
  ): Promise<{ error: Answer } | { number: FakeMetaNumber }> {
    const numbers = (await this.numbers()).filter((number) => number.wabaId === wabaId);
    if (numbers.length === 0) return { error: unknownObject(wabaId) };
    const token = /^Bearer (.+)$/.exec(headers.authorization ?? '')?.[1];
    const number = numbers.find((candidate) => token && secretMatches(candidate.accessToken, token)) ?? numbers[0]!;
    const refused = this.authError(number, headers, query);
    return refused ? { error: refused } : { number };
  }

  /** `POST /{waba-id}/message_templates` (§4.1). */
  async createTemplate(wabaId: string, headers: Record<string, string | undefined>, query: Record<string, string>, body: unknown): Promise<Answer> {
    this.record('POST', `/${wabaId}/message_templates`, headers, query, body);
    const found = await this.wabaNumber(wabaId, headers, query);
    if ('error' in found) return found.error;
    if (!isObject(body)) return invalidParameter('The request body must be a JSON object.');
    const name = text(body.name) ?? '';
    if (!/^[a-z0-9_]{1,512}$/.test(name)) return invalidParameter('name must be lowercase letters, digits and underscores.');
    const category = text(body.category) ?? '';
    if (!['MARKETING', 'UTILITY', 'AUTHENTICATION'].includes(category)) return invalidParameter('category must be MARKETING, UTILITY or AUTHENTICATION.');
    const language = text(body.language) ?? '';
    if (!/^[a-z]{2}(_[A-Z]{2})?$/.test(language)) return invalidParameter('language is invalid.');
    const components = Array.isArray(body.components) ? body.components.filter(isObject) : [];
    const bodyComponent = components.find((component) => component.type === 'BODY');
    if (!bodyComponent || !text(bodyComponent.text)) return invalidParameter('A BODY component with text is required.');
    const header = components.find((component) => component.type === 'HEADER');
    if (header && header.format !== 'TEXT') {
      const handle = isObject(header.example) && Array.isArray(header.example.header_handle) ? text(header.example.header_handle[0]) : undefined;
      if (!handle || !this.handles.has(handle)) return invalidParameter('The media header needs example.header_handle from the resumable upload.');
    }
    if (this.templatesOf(wabaId).some((held) => held.name === name && held.language === language)) {
      return graphError(400, 100, 'Invalid parameter', `Message template "${name}" already exists in ${language}.`);
    }
    const template: FakeMetaTemplate = {
      id: String(++this.templateSeq),
      wabaId,
      name,
      language,
      category,
      status: 'PENDING',
      rejected_reason: 'NONE',
      components,
    };
    await this.keepTemplate(template, new Date(Date.now() + this.templateReviewMs));
    this.templates.push(template);
    this.scheduleReview(template, this.templateReviewMs);
    return { status: 200, body: { id: template.id, status: 'PENDING', category } };
  }

  /** `message_template_status_update` to every number of the WABA (§4.6). */
  private async announceTemplate(template: FakeMetaTemplate) {
    for (const number of (await this.numbers()).filter((candidate) => candidate.wabaId === template.wabaId)) {
      await this.deliver(
        number,
        {
          event: template.status,
          message_template_id: Number(template.id),
          message_template_name: template.name,
          message_template_language: template.language,
          reason: template.rejected_reason,
          message_template_category: template.category,
        },
        'message_template_status_update',
      );
    }
  }

  /** `GET /{waba-id}/message_templates` (§4.2), 25 by default, paged by `after`. */
  async listTemplates(wabaId: string, headers: Record<string, string | undefined>, query: Record<string, string>): Promise<Answer> {
    this.record('GET', `/${wabaId}/message_templates`, headers, query);
    const found = await this.wabaNumber(wabaId, headers, query);
    if ('error' in found) return found.error;
    const limit = Math.min(Math.max(Number(query.limit) || 25, 1), 100);
    const start = query.after ? Number(Buffer.from(query.after, 'base64url').toString()) || 0 : 0;
    const all = this.templatesOf(wabaId);
    const page = all.slice(start, start + limit);
    const cursor = (index: number) => Buffer.from(String(index)).toString('base64url');
    const more = start + limit < all.length;
    return {
      status: 200,
      body: {
        data: page.map(({ id, name, status, category, language, rejected_reason, components }) => ({
          id,
          name,
          status,
          category,
          language,
          rejected_reason,
          components,
        })),
        paging: { cursors: { before: cursor(start), after: cursor(start + page.length) }, ...(more ? { next: `${this.options.publicUrl()}/next` } : {}) },
      },
    };
  }

  /** `DELETE /{waba-id}/message_templates?name=…[&hsm_id=…]` (§4.2). */
  async deleteTemplate(wabaId: string, headers: Record<string, string | undefined>, query: Record<string, string>): Promise<Answer> {
    this.record('DELETE', `/${wabaId}/message_templates`, headers, query);
    const found = await this.wabaNumber(wabaId, headers, query);
    if ('error' in found) return found.error;
    const named = this.templatesOf(wabaId).filter((template) => template.name === query.name && (!query.hsm_id || template.id === query.hsm_id));
    if (named.length === 0) return graphError(404, 100, 'Invalid parameter', `Message template "${query.name ?? ''}" not found.`);
    await this.state.deleteTemplates(
      'meta',
      named.map((template) => template.id),
    );
    for (const template of named) this.templates.splice(this.templates.indexOf(template), 1);
    return { status: 200, body: { success: true } };
  }

  /** Keeps a customer upload (the phone's files are Meta's media ids); answers its id. */
  async storeFile(data: Buffer, contentType: string, name?: string): Promise<string> {
    const id = String(Date.now()) + String(Math.floor(Math.random() * 1e6)).padStart(6, '0');
    await this.store.keepUpload({ id, data, contentType, ...(name ? { name } : {}) });
    return id;
  }

  /** The customer writes: builds Meta's inbound webhook and delivers it, signed, to the number's callback. */
  async customerSends(input: MetaCustomerMessage): Promise<{ id: string }> {
    const number = await this.numberById(input.phoneNumberId);
    if (!number) throw new Error(`unknown sandbox Meta number ${input.phoneNumberId}`);
    if (input.group) throw new Error('the Cloud API fake has no groups');
    const id = wamid();
    const inbound: Json = {
      from: input.phone,
      id,
      timestamp: seconds(),
      ...inboundContent(input),
      ...(input.replyTo?.whatsappId ? { context: { from: number.displayPhoneNumber, id: input.replyTo.whatsappId } } : {}),
    };
    const message: FakeConversationMessage = {
      id,
      direction: 'from_customer',
      type: input.kind,
      body: await this.phoneInboundBody(input),
      status: 'sent',
      createdAt: new Date().toISOString(),
    };
    await this.store.append(conversationKey(number.phoneNumberId), input.phone, message);
    const value = {
      messaging_product: 'whatsapp',
      metadata: this.metadata(number),
      contacts: [{ profile: { name: input.name ?? input.phone }, wa_id: input.phone }],
      messages: [inbound],
    };
    // Delivered once the business's server took it; a read receipt may already have come meanwhile.
    if (await this.deliver(number, value)) await this.store.setStatus(id, 'delivered', 'sent');
    return { id };
  }

  /** One message of the customer's conversation with the number, by its phone-side id. */
  conversationMessage(phoneNumberId: string, customerPhone: string, id: string): Promise<FakeConversationMessage | undefined> {
    return this.store.find(conversationKey(phoneNumberId), customerPhone, id);
  }

  /**
   * The customer changes an earlier message: a signed delivery of an inbound `reaction` (no emoji: taken back),
   * `edit` (the new text) or `revoke`, each naming the message by its WhatsApp id (meta-cloud.md §3.4).
   */
  async customerChanges(input: Omit<ChangingCustomer, 'group'> & { phoneNumberId: string; target: FakeConversationMessage; change: CustomerChange }) {
    const number = await this.numberById(input.phoneNumberId);
    if (!number) throw new Error(`unknown sandbox Meta number ${input.phoneNumberId}`);
    const { target, change } = input;
    const body = changedBody(target.body, change);
    await this.store.setBody(conversationKey(number.phoneNumberId), input.phone, target.id, body);
    const original = whatsappIdOf(target);
    const content =
      change.kind === 'reaction'
        ? { type: 'reaction', reaction: { message_id: original, ...(change.emoji ? { emoji: change.emoji } : {}) } }
        : change.kind === 'edit'
          ? { type: 'edit', edit: { original_message_id: original, message: { type: 'text', text: { body: change.text } } } }
          : { type: 'revoke', revoke: { original_message_id: original } };
    await this.deliver(number, {
      messaging_product: 'whatsapp',
      metadata: this.metadata(number),
      contacts: [{ profile: { name: input.name ?? input.phone }, wa_id: input.phone }],
      messages: [{ from: input.phone, id: wamid(), timestamp: seconds(), ...content }],
    });
    return { ...target, body };
  }

  /** What the phone shows of the customer's own message: the same shapes as with the Gupshup fake, media by our URL. */
  private async phoneInboundBody(input: MetaCustomerMessage): Promise<Json> {
    switch (input.kind) {
      case 'image':
      case 'video':
      case 'audio':
      case 'file':
      case 'sticker':
        return {
          url: `${this.options.publicUrl()}/files/${input.url}`,
          contentType: input.contentType,
          ...(input.caption ? { caption: input.caption } : {}),
          ...(input.fileName ? { name: input.fileName } : {}),
        };
      case 'text':
        return { text: input.text };
      case 'location':
        return {
          latitude: String(input.latitude),
          longitude: String(input.longitude),
          ...(input.placeName ? { name: input.placeName } : {}),
          ...(input.address ? { address: input.address } : {}),
        };
      case 'button_reply':
      case 'list_reply':
        return { title: input.title, id: input.id ?? '', postbackText: input.postbackText ?? input.title };
      case 'quick_reply':
        return { text: input.text, type: 'button', ...(input.postbackText ? { postbackText: input.postbackText } : {}) };
      case 'unknown_type':
        return input.data;
    }
  }

  file(id: string): Promise<FakeUpload | undefined> {
    return this.store.upload(id);
  }
}

/** The inbound message object for the customer's input (§3.4); `url` of a media input is the fake's media id. */
function inboundContent(input: MetaCustomerMessage): Json {
  switch (input.kind) {
    case 'text':
      return { type: 'text', text: { body: input.text } };
    case 'image':
    case 'video':
    case 'sticker':
      return { type: input.kind, [input.kind]: { id: input.url, mime_type: input.contentType, ...(input.caption ? { caption: input.caption } : {}) } };
    case 'audio':
      return { type: 'audio', audio: { id: input.url, mime_type: input.contentType, ...(input.contentType.includes('opus') ? { voice: true } : {}) } };
    case 'file':
      return {
        type: 'document',
        document: {
          id: input.url,
          mime_type: input.contentType,
          filename: input.fileName ?? 'documento',
          ...(input.caption ? { caption: input.caption } : {}),
        },
      };
    case 'location':
      return {
        type: 'location',
        location: {
          latitude: input.latitude,
          longitude: input.longitude,
          ...(input.placeName ? { name: input.placeName } : {}),
          ...(input.address ? { address: input.address } : {}),
        },
      };
    case 'button_reply':
      return {
        type: 'interactive',
        interactive: { type: 'button_reply', button_reply: { id: input.postbackText ?? input.id ?? input.title, title: input.title } },
      };
    case 'list_reply':
      return {
        type: 'interactive',
        interactive: {
          type: 'list_reply',
          list_reply: { id: input.postbackText ?? input.id ?? input.title, title: input.title, description: input.description ?? '' },
        },
      };
    case 'quick_reply':
      return { type: 'button', button: { payload: input.postbackText ?? input.text, text: input.text } };
    case 'unknown_type':
      return { type: 'unsupported', errors: [{ code: 131051, title: 'Message type unknown' }], ...input.data };
  }
}

function interactiveProblem(interactive: Json): string | undefined {
  const body = isObject(interactive.body) ? text(interactive.body.text) : undefined;
  if (!body) return 'interactive.body.text is required.';
  if (body.length > 1024) return 'interactive.body.text is too long (1024 at most).';
  const action = isObject(interactive.action) ? interactive.action : {};
  if (interactive.type === 'button') {
    const buttons = Array.isArray(action.buttons) ? action.buttons.filter(isObject) : [];
    if (buttons.length < 1 || buttons.length > 3) return 'Buttons count must be between 1 and 3.';
    const titles = buttons.map((button) => (isObject(button.reply) ? text(button.reply.title) : undefined));
    if (titles.some((title) => !title || title.length > 20)) return 'Button title must be 1 to 20 characters.';
    if (new Set(titles).size !== titles.length) return 'Button titles must be unique.';
    return undefined;
  }
  if (interactive.type === 'list') {
    const button = text(action.button);
    if (!button || button.length > 20) return 'action.button must be 1 to 20 characters.';
    const sections = Array.isArray(action.sections) ? action.sections.filter(isObject) : [];
    const rows = sections.flatMap((section) => (Array.isArray(section.rows) ? section.rows.filter(isObject) : []));
    if (sections.length === 0 || sections.length > 10) return 'Sections count must be between 1 and 10.';
    if (rows.length === 0 || rows.length > 10) return 'Rows count must be between 1 and 10.';
    if (rows.some((row) => !text(row.title) || text(row.title)!.length > 24)) return 'Row title must be 1 to 24 characters.';
    return undefined;
  }
  return `Unsupported interactive type: ${String(interactive.type)}.`;
}

/** The phone's name for a business message's kind (the shapes the phone page reads: gupshup-like). */
function phoneType(body: Json): string {
  const type = text(body.type) ?? 'text';
  if (type === 'document') return 'file';
  if (type === 'interactive') return isObject(body.interactive) && body.interactive.type === 'list' ? 'list' : 'quick_reply';
  return type;
}

/**
 * A business message as the sandbox phone page shows it. The phone reads one set of shapes for both fakes (the
 * Gupshup-like ones of `phone-message-content.ts`), so the fake translates Meta's body into them.
 */
function phoneBody(body: Json): Json {
  const type = text(body.type) ?? 'text';
  const inner = isObject(body[type]) ? (body[type] as Json) : {};
  const context = isObject(body.context) && text(body.context.message_id) ? { context: { msgId: body.context.message_id } } : {};
  const link = text(inner.link) ?? text(inner.id);
  switch (type) {
    case 'text':
      return { ...context, type: 'text', text: text(inner.body) ?? '' };
    case 'image':
      return { ...context, type: 'image', originalUrl: link, ...(inner.caption ? { caption: inner.caption } : {}) };
    case 'video':
      return { ...context, type: 'video', url: link, ...(inner.caption ? { caption: inner.caption } : {}) };
    case 'audio':
      return { ...context, type: 'audio', url: link };
    case 'sticker':
      return { ...context, type: 'sticker', url: link };
    case 'document':
      return { ...context, type: 'file', url: link, filename: text(inner.filename) ?? 'documento', ...(inner.caption ? { caption: inner.caption } : {}) };
    case 'location':
      return { type: 'location', latitude: String(inner.latitude), longitude: String(inner.longitude), name: inner.name, address: inner.address };
    case 'interactive': {
      const action = isObject(inner.action) ? inner.action : {};
      const header = isObject(inner.header) ? text(inner.header.text) : undefined;
      const bodyText = isObject(inner.body) ? text(inner.body.text) : undefined;
      const footer = isObject(inner.footer) ? text(inner.footer.text) : undefined;
      if (inner.type === 'list') {
        const sections = Array.isArray(action.sections) ? action.sections.filter(isObject) : [];
        return {
          type: 'list',
          title: header,
          body: bodyText,
          ...(footer ? { footer } : {}),
          globalButtons: [{ type: 'text', title: action.button }],
          items: sections.map((section) => ({
            title: section.title,
            options: (Array.isArray(section.rows) ? section.rows.filter(isObject) : []).map((row) => ({
              type: 'text',
              title: row.title,
              description: row.description,
              postbackText: row.id,
            })),
          })),
        };
      }
      const buttons = Array.isArray(action.buttons) ? action.buttons.filter(isObject) : [];
      return {
        type: 'quick_reply',
        content: { type: 'text', text: bodyText, ...(header ? { header } : {}), ...(footer ? { caption: footer } : {}) },
        options: buttons.map((button) => {
          const reply = isObject(button.reply) ? button.reply : {};
          return { type: 'text', title: reply.title, postbackText: reply.id };
        }),
      };
    }
    case 'template': {
      const components = Array.isArray(inner.components) ? inner.components.filter(isObject) : [];
      const params = ((components.find((component) => component.type === 'body')?.parameters as Json[] | undefined) ?? []).map(
        (param) => text(param.text) ?? '',
      );
      const headerParam = (components.find((component) => component.type === 'header')?.parameters as Json[] | undefined)?.[0];
      const headerType = headerParam ? text(headerParam.type) : undefined;
      return {
        template: { id: text(inner.name), params },
        ...(headerType && isObject(headerParam![headerType]) ? { message: { type: headerType, [headerType]: headerParam![headerType] } } : {}),
      };
    }
    default:
      return { type, ...inner };
  }
}

function headersOf(request: FastifyRequest): Record<string, string | undefined> {
  const pick = (name: string) => {
    const value = request.headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  return { authorization: pick('authorization'), 'content-type': pick('content-type'), file_offset: pick('file_offset') };
}

const VERSION = /^v\d+\.\d+$/;

/**
 * The Graph API surface over a FakeMetaCloud: `/{version}/{phone-number-id}/messages`, `/{version}/{id}`,
 * `/{version}/{waba-id}/message_templates`, `/{version}/app`, `/{version}/{app-id}/uploads`, `/{version}/upload:…`,
 * and the media and file URLs it hands out.
 */
export function fakeMetaCloudRoutes(fake: FakeMetaCloud): FastifyPluginAsync {
  return async (app: FastifyInstance) => {
    // The resumable upload posts the file's bytes with the file's own content type.
    app.addContentTypeParser(
      ['image/png', 'image/jpeg', 'video/mp4', 'application/pdf', 'application/octet-stream'],
      { parseAs: 'buffer' },
      (_request, body, done) => done(null, body),
    );
    app.addHook('onRequest', async (request) => {
      fake.urls.push(request.url);
    });
    const config = { access: 'public' as const };
    type Params = { version: string; id: string };
    const answer = (reply: FastifyReply, result: Answer) => reply.status(result.status).send(result.body);
    const badVersion = (reply: FastifyReply, version: string) =>
      answer(reply, graphError(400, 2500, `Unknown path components: /${version}`, undefined, 'OAuthException'));
    const query = (request: FastifyRequest) => request.query as Record<string, string>;

    app.post('/:version/:id/messages', { config }, async (request, reply) => {
      const { version, id } = request.params as Params;
      if (!VERSION.test(version)) return badVersion(reply, version);
      return answer(reply, await fake.postMessages(id, headersOf(request), query(request), request.body));
    });
    app.get('/:version/:id', { config }, async (request, reply) => {
      const { version, id } = request.params as Params;
      if (!VERSION.test(version)) return badVersion(reply, version);
      if (id === 'app') return answer(reply, await fake.getApp(headersOf(request), query(request)));
      return answer(reply, await fake.getObject(id, headersOf(request), query(request)));
    });
    app.post('/:version/:id', { config }, async (request, reply) => {
      const { version, id } = request.params as Params;
      if (!VERSION.test(version)) return badVersion(reply, version);
      if (!id.startsWith('upload:')) return answer(reply, invalidParameter('Unsupported post request.'));
      const bytes = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      return answer(reply, await fake.upload(id, headersOf(request), bytes));
    });
    app.post('/:version/:id/uploads', { config }, async (request, reply) => {
      const { version, id } = request.params as Params;
      if (!VERSION.test(version)) return badVersion(reply, version);
      return answer(reply, await fake.openUpload(id, headersOf(request), query(request)));
    });
    app.post('/:version/:id/message_templates', { config }, async (request, reply) => {
      const { version, id } = request.params as Params;
      if (!VERSION.test(version)) return badVersion(reply, version);
      return answer(reply, await fake.createTemplate(id, headersOf(request), query(request), request.body));
    });
    app.get('/:version/:id/message_templates', { config }, async (request, reply) => {
      const { version, id } = request.params as Params;
      if (!VERSION.test(version)) return badVersion(reply, version);
      return answer(reply, await fake.listTemplates(id, headersOf(request), query(request)));
    });
    app.delete('/:version/:id/message_templates', { config }, async (request, reply) => {
      const { version, id } = request.params as Params;
      if (!VERSION.test(version)) return badVersion(reply, version);
      return answer(reply, await fake.deleteTemplate(id, headersOf(request), query(request)));
    });
    app.get('/media-download/:id', { config }, async (request, reply) => {
      const result = await fake.mediaDownload((request.params as { id: string }).id, headersOf(request));
      if (!result.file) return reply.status(result.status).send({ error: { message: 'Not found', code: 100 } });
      return reply.type(result.file.contentType).send(result.file.data);
    });
    // What the sandbox phone shows of the customer's own files (no token: the phone is the customer).
    app.get('/files/:id', { config }, async (request, reply) => {
      const file = await fake.file((request.params as { id: string }).id);
      if (!file) return reply.status(404).send({ error: { message: 'Not found', code: 100 } });
      return reply.type(file.contentType).send(file.data);
    });
  };
}
