import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';

/**
 * A faithful fake of Gupshup's Access API: the same endpoints, form fields and answers, and the
 * same v2 callbacks (inbound messages, then enqueued → sent → delivered → read for what is sent).
 * It backs the in-process sandbox provider, the sandbox phone, and tests as a standalone server.
 */

export interface FakeApp {
  appName: string;
  sourceNumber: string;
  label?: string;
  callbackUrl: string;
}

export interface FakeConversationMessage {
  id: string;
  direction: 'to_customer' | 'from_customer';
  /** Gupshup `message` JSON as sent, or the inbound payload the phone produced. */
  type: string;
  body: Record<string, unknown>;
  status: 'submitted' | 'enqueued' | 'sent' | 'delivered' | 'read' | 'failed';
  participant?: { phone: string; name?: string };
  createdAt: string;
}

export interface FakeGupshupOptions {
  /** Apps the fake knows (the business side): app name → callback URL. */
  apps: () => Promise<FakeApp[]> | FakeApp[];
  /** Delay between the status callbacks; short by default so the UI shows ticks moving. */
  statusStepMs?: number;
  /** Public base URL of this fake, for the media URLs it hands out. */
  publicUrl: () => string;
  log?: { warn(obj: unknown, msg?: string): void };
}

export interface SentRequest {
  path: string;
  headers: Record<string, string | undefined>;
  form: Record<string, string>;
}

/** Destinations starting with this prefix do not exist on WhatsApp (Gupshup code 1002). */
export const FAKE_UNKNOWN_NUMBER_PREFIX = '000';

export class FakeGupshup {
  readonly requests: SentRequest[] = [];
  private readonly conversations = new Map<string, FakeConversationMessage[]>();
  private readonly files = new Map<string, { contentType: string; data: Buffer; name?: string }>();
  private failures: Array<{ status: number; body: unknown }> = [];
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(private readonly options: FakeGupshupOptions) {}

  /** Makes the next sends answer with these errors, in order (e.g. a 503 outage). */
  failNextSends(...failures: Array<{ status: number; body?: unknown }>) {
    this.failures.push(...failures.map((failure) => ({ status: failure.status, body: failure.body ?? { status: 'error', message: 'Internal Server Error' } })));
  }

  conversation(appName: string, customerPhone: string): FakeConversationMessage[] {
    return this.conversations.get(`${appName}:${customerPhone}`) ?? [];
  }

  async listApps(): Promise<FakeApp[]> {
    return this.options.apps();
  }

  close() {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  private record(appName: string, customerPhone: string, message: FakeConversationMessage) {
    const key = `${appName}:${customerPhone}`;
    const list = this.conversations.get(key) ?? [];
    list.push(message);
    this.conversations.set(key, list);
  }

  private async appNamed(appName: string | undefined) {
    return appName ? (await this.options.apps()).find((app) => app.appName === appName) : undefined;
  }

  private async callback(app: FakeApp, type: string, payload: Record<string, unknown>) {
    const envelope = { app: app.appName, timestamp: Date.now(), version: 2, type, payload };
    try {
      const response = await fetch(app.callbackUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'Gupshup-Sandbox/1.0' },
        body: JSON.stringify(envelope),
        signal: AbortSignal.timeout(10_000),
      });
      if (!response.ok) this.options.log?.warn({ status: response.status, type }, 'sandbox callback refused');
    } catch (error) {
      this.options.log?.warn({ err: error, type }, 'sandbox callback failed');
    }
  }

  private later(ms: number, task: () => Promise<void>) {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void task();
    }, ms);
    this.timers.add(timer);
  }

  /** Plays the customer's phone: the delivery callbacks of one message the business sent. */
  private playStatuses(app: FakeApp, message: FakeConversationMessage, destination: string) {
    const step = this.options.statusStepMs ?? 400;
    const wamid = `wamid.${randomUUID().replace(/-/g, '')}`;
    const set = (status: FakeConversationMessage['status']) => {
      message.status = status;
    };
    this.later(0, async () => {
      set('enqueued');
      await this.callback(app, 'message-event', { id: message.id, type: 'enqueued', destination, payload: { whatsappMessageId: wamid, type: message.type === 'template' ? 'template' : 'session' } });
    });
    if (destination.startsWith(FAKE_UNKNOWN_NUMBER_PREFIX)) {
      this.later(step, async () => {
        set('failed');
        await this.callback(app, 'message-event', { id: message.id, type: 'failed', destination, payload: { code: 1002, reason: 'Number Does Not Exists On WhatsApp' } });
      });
      return;
    }
    (['sent', 'delivered', 'read'] as const).forEach((status, index) => {
      this.later(step * (index + 1), async () => {
        set(status);
        await this.callback(app, 'message-event', { id: wamid, gsId: message.id, type: status, destination, payload: { ts: Math.floor(Date.now() / 1000) } });
      });
    });
  }

  async handleSend(path: string, headers: Record<string, string | undefined>, form: Record<string, string>) {
    this.requests.push({ path, headers, form });
    const apiKey = headers.apikey ?? headers.api_key;
    if (!apiKey) return { status: 401, body: { status: 'error', message: 'Authentication Failed' } };
    const failure = this.failures.shift();
    if (failure) return failure;

    const app = await this.appNamed(form['src.name']);
    if (!app || (form.source && form.source !== app.sourceNumber)) return { status: 400, body: { status: 'error', message: 'Invalid App Details' } };
    const destination = form.destination ?? '';
    if (!/^\d{6,20}$/.test(destination)) return { status: 400, body: { status: 'error', message: 'Invalid Destination' } };

    let body: Record<string, unknown>;
    let type: string;
    try {
      if (path.endsWith('/template/msg')) {
        const template = JSON.parse(form.template ?? '') as Record<string, unknown>;
        if (typeof template.id !== 'string') throw new Error('template id');
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
    const message: FakeConversationMessage = { id: randomUUID(), direction: 'to_customer', type, body, status: 'submitted', createdAt: new Date().toISOString() };
    this.record(app.appName, destination, message);
    this.playStatuses(app, message, destination);
    return { status: 200, body: { status: 'submitted', messageId: message.id } };
  }

  storeFile(data: Buffer, contentType: string, name?: string) {
    const id = randomUUID();
    this.files.set(id, { data, contentType, name });
    return `${this.options.publicUrl()}/files/${id}`;
  }

  file(id: string) {
    return this.files.get(id);
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
    this.record(app.appName, conversationPhone, {
      id, direction: 'from_customer', type: input.kind, body: inner, status: 'sent', participant: input.group ? { phone: input.phone, name: input.name } : undefined, createdAt: new Date().toISOString(),
    });
    await this.callback(app, 'message', payload);
    return { id };
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
  | { kind: 'location'; latitude: number; longitude: number; name?: string; address?: string }
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
        url: input.url, contentType: input.contentType, urlExpiry: Date.now() + 7 * 86_400_000,
        ...(input.caption ? { caption: input.caption } : {}), ...(input.fileName ? { name: input.fileName } : {}),
      };
    case 'location':
      return { latitude: String(input.latitude), longitude: String(input.longitude), ...(input.name ? { name: input.name } : {}), ...(input.address ? { address: input.address } : {}) };
    case 'button_reply':
      return { title: input.title, id: input.id ?? '', reply: `${input.title} 1`, ...(input.postbackText ? { postbackText: input.postbackText } : {}) };
    case 'quick_reply':
      return { text: input.text, type: 'button', ...(input.postbackText ? { postbackText: input.postbackText } : {}) };
    case 'list_reply':
      return { title: input.title, id: input.id ?? '', reply: `${input.title} 1`, postbackText: input.postbackText ?? input.title, description: input.description ?? '' };
    case 'unknown_type':
      return input.data;
  }
}

/** Gupshup's HTTP surface over a FakeGupshup: `/wa/api/v1/msg`, `/wa/api/v1/template/msg`, media files. */
export function fakeGupshupRoutes(fake: FakeGupshup): FastifyPluginAsync {
  return async (app: FastifyInstance) => {
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
    app.get('/files/:id', { config: { access: 'public' } }, async (request, reply) => {
      const file = fake.file((request.params as { id: string }).id);
      if (!file) return reply.status(404).send({ status: 'error', message: 'Not Found' });
      return reply.type(file.contentType).send(file.data);
    });
  };
}
