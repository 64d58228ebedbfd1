import { createHmac } from 'node:crypto';
import { MEDIA_UPLOAD_INVALID_RESPONSE } from '@embudo/contracts/http/templates';
import { badRequest } from '../../platform/errors/app-error.ts';

/**
 * Gupshup's partner API (partner.gupshup.io, gupshup.md §7): partner login → app token, then the
 * app's templates and template media samples, and read receipts through the v3 passthrough (§2.2).
 * Tokens are cached; a 401 drops them and retries once.
 */

export interface PartnerCredentials {
  email: string;
  password: string;
}

export interface PartnerTemplate {
  id: string;
  elementName: string;
  languageCode: string;
  status: string;
  reason: string | null;
}

export interface GupshupPartnerApi {
  createTemplate(appId: string, fields: Record<string, string>): Promise<PartnerTemplate>;
  listTemplates(appId: string): Promise<PartnerTemplate[]>;
  /** With a template id only that language is deleted; by name alone Gupshup deletes every language. */
  deleteTemplate(appId: string, elementName: string, templateId?: string): Promise<void>;
  uploadMedia(appId: string, file: { data: Buffer; mime: string; fileName: string }): Promise<string>;
  /** Marks a customer's message read on their WhatsApp (the classic `/wa/api/v1/msg` API has no read receipt). */
  markRead(appId: string, whatsappMessageId: string): Promise<void>;
}

export const PARTNER_CREDENTIALS_MISSING = 'Las credenciales de Gupshup no están configuradas.';
/**
 * The sandbox's own partner account on its fake Gupshup, used while the operator saved none: its password is an HMAC
 * under APP_SECRET, so only this process can sign in with it.
 */
export function sandboxPartnerCredentials(appSecret: string): PartnerCredentials {
  return { email: 'sandbox@embudo.local', password: createHmac('sha256', appSecret).update('sandbox-gupshup-partner-password').digest('base64url') };
}

/** Partner credentials from the platform settings; without them, the sandbox's own account (sandbox mode) or a 400. */
export function partnerCredentialsFrom(stored: { partnerEmail?: string; partnerPassword?: string }, sandbox?: PartnerCredentials): PartnerCredentials {
  if (stored.partnerEmail && stored.partnerPassword) return { email: stored.partnerEmail, password: stored.partnerPassword };
  if (sandbox) return sandbox;
  throw badRequest(PARTNER_CREDENTIALS_MISSING);
}

/** Any failure of the partner API; `message` is Gupshup's own when it gave one. */
export class PartnerApiError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

/** An upload answer without `handleId.message`; the UI shows this wording as is. */
export const MEDIA_HANDLE_MISSING = MEDIA_UPLOAD_INVALID_RESPONSE;

const TIMEOUT_MS = 20_000;
const PARTNER_TOKEN_TTL_MS = 23 * 60 * 60 * 1000;

export interface PartnerClientOptions {
  /** Lazy: the in-process sandbox only knows its port once the server listens. */
  baseUrl: string | (() => string);
  /** Throws (an AppError) when none are configured. */
  credentials: () => Promise<PartnerCredentials>;
  fetch?: typeof fetch;
}

export function createGupshupPartnerClient(options: PartnerClientOptions): GupshupPartnerApi {
  const doFetch = options.fetch ?? fetch;
  const baseUrl = () => (typeof options.baseUrl === 'string' ? options.baseUrl : options.baseUrl()).replace(/\/$/, '');
  let partnerToken: { value: string; email: string; expiresAt: number } | undefined;
  const appTokens = new Map<string, string>();

  async function call(path: string, init: RequestInit): Promise<{ status: number; body: Record<string, unknown> }> {
    let response: Response;
    try {
      response = await doFetch(`${baseUrl()}${path}`, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
    } catch (error) {
      throw new PartnerApiError(`Gupshup no respondió: ${(error as Error).message}`);
    }
    const text = await response.text();
    let body: Record<string, unknown> = {};
    try {
      const parsed = text ? JSON.parse(text) : {};
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) body = parsed as Record<string, unknown>;
    } catch {
      // A non-JSON answer (a proxy's HTML page) is reported by its status.
    }
    return { status: response.status, body };
  }

  const failure = (answer: { status: number; body: Record<string, unknown> }) => {
    // Gupshup answers `{status, message}`; the v3 passthrough may relay Meta's `{error: {message}}` (meta-cloud.md §2.8).
    const metaMessage = (answer.body.error as { message?: unknown } | undefined)?.message;
    const message = [answer.body.message, metaMessage].find((candidate): candidate is string => typeof candidate === 'string' && candidate !== '');
    return new PartnerApiError(message ?? `Gupshup respondió ${answer.status}`, answer.status);
  };

  async function loginToken(): Promise<string> {
    const credentials = await options.credentials();
    if (partnerToken && partnerToken.email === credentials.email && partnerToken.expiresAt > Date.now()) return partnerToken.value;
    const answer = await call('/partner/account/login', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({ email: credentials.email, password: credentials.password }).toString(),
    });
    if (answer.status !== 200 || typeof answer.body.token !== 'string') throw failure(answer);
    partnerToken = { value: answer.body.token, email: credentials.email, expiresAt: Date.now() + PARTNER_TOKEN_TTL_MS };
    return partnerToken.value;
  }

  async function appToken(appId: string): Promise<string> {
    const cached = appTokens.get(appId);
    if (cached) return cached;
    const answer = await call(`/partner/app/${encodeURIComponent(appId)}/token`, {
      method: 'GET',
      headers: { authorization: await loginToken(), accept: 'application/json' },
    });
    const token = (answer.body.token as { token?: unknown } | undefined)?.token;
    if (answer.status !== 200 || typeof token !== 'string') throw failure(answer);
    appTokens.set(appId, token);
    return token;
  }

  /** An app-token call; a 401 means a stale token, so both tokens are fetched again once. */
  async function appCall(appId: string, path: string, init: RequestInit) {
    for (let attempt = 0; ; attempt++) {
      const token = await appToken(appId);
      const answer = await call(`/partner/app/${encodeURIComponent(appId)}${path}`, {
        ...init,
        headers: { ...(init.headers as Record<string, string>), authorization: token, accept: 'application/json' },
      });
      if (answer.status === 401 && attempt === 0) {
        appTokens.delete(appId);
        partnerToken = undefined;
        continue;
      }
      return answer;
    }
  }

  return {
    async createTemplate(appId, fields) {
      const answer = await appCall(appId, '/templates', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields).toString(),
      });
      const template = toPartnerTemplate(answer.body.template);
      if (answer.status !== 200 || !template) throw failure(answer);
      return template;
    },

    async listTemplates(appId) {
      const answer = await appCall(appId, '/templates', { method: 'GET' });
      if (answer.status !== 200 || !Array.isArray(answer.body.templates)) throw failure(answer);
      return answer.body.templates.map(toPartnerTemplate).filter((template): template is PartnerTemplate => Boolean(template));
    },

    async deleteTemplate(appId, elementName, templateId) {
      const path = `/template/${encodeURIComponent(elementName)}${templateId ? `/${encodeURIComponent(templateId)}` : ''}`;
      const answer = await appCall(appId, path, { method: 'DELETE' });
      if (answer.status !== 200) throw failure(answer);
    },

    async uploadMedia(appId, file) {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(file.data)], { type: file.mime }), file.fileName);
      form.append('file_type', file.mime);
      const answer = await appCall(appId, '/upload/media', { method: 'POST', body: form });
      const handle = (answer.body.handleId as { message?: unknown } | undefined)?.message;
      if (typeof handle === 'string' && handle) return handle;
      if (answer.status === 401 || answer.status >= 500) throw failure(answer);
      throw new PartnerApiError(MEDIA_HANDLE_MISSING, answer.status);
    },

    async markRead(appId, whatsappMessageId) {
      // Meta's mark-as-read body (meta-cloud.md §2.7) through the passthrough, which mirrors Meta's answers.
      const answer = await appCall(appId, '/v3/message', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ messaging_product: 'whatsapp', status: 'read', message_id: whatsappMessageId }),
      });
      // The exact success body is unconfirmed: Meta's `{"success":true}` or a Meta-like `{"messaging_product":"whatsapp",…}`.
      const accepted = answer.body.success === true || answer.body.messaging_product === 'whatsapp';
      if (answer.status >= 200 && answer.status < 300 && accepted) return;
      throw failure(answer);
    },
  };
}

function toPartnerTemplate(value: unknown): PartnerTemplate | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const template = value as Record<string, unknown>;
  if (typeof template.id !== 'string' || typeof template.elementName !== 'string') return undefined;
  return {
    id: template.id,
    elementName: template.elementName,
    languageCode: String(template.languageCode ?? ''),
    status: String(template.status ?? 'PENDING').toUpperCase(),
    reason: typeof template.reason === 'string' && template.reason ? template.reason : null,
  };
}
