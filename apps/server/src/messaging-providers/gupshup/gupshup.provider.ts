import {
  ProviderError,
  type GupshupAccount,
  type MediaDownloader,
  type MessagingProvider,
  type OutboundContent,
  type SendResult,
  type TemplateCatalog,
  type WebhookReceiver,
  type WhatsAppLine,
} from '../provider.ts';
import { PartnerApiError, type GupshupPartnerApi } from './gupshup-partner.client.ts';
import { gupshupSendFailure } from './gupshup-errors.ts';
import { toGupshupMessage, toGupshupTemplateFields } from './gupshup-message.mapper.ts';
import { toPartnerTemplateFields, toProviderTemplate } from './gupshup-template.mapper.ts';
import { parseGupshupWebhook } from './gupshup-webhook.parser.ts';
import { callService, ServiceCallUncertain, type ServiceAnswer } from '../../platform/outbound-http/service-http.ts';

const SEND_TIMEOUT_MS = 15_000;

export const NO_PLATFORM_API_KEY = 'La plataforma aún no tiene la clave de la API de Gupshup: pide al operador que la configure.';

export interface GupshupProviderOptions {
  /** May be lazy: the in-process sandbox only knows its port once the server listens. */
  apiUrl: string | (() => string);
  /** Templates, their media samples and read receipts exist only on the partner API (gupshup.md §2.2, §7). */
  partner: GupshupPartnerApi;
  /** Inbound media, only from Gupshup's file manager (or, in sandbox mode, the fake's own uploads). */
  downloadMedia: MediaDownloader;
  /** How long a send waits for Gupshup's answer before it counts as uncertain. */
  sendTimeoutMs?: number;
}

const retryableStatus = (status: number | undefined) => status === undefined || status === 429 || status >= 500;

/** A partner API failure as the port's ProviderError (no status: Gupshup never answered, so retryable); anything else passes through. */
async function viaPartner<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof PartnerApiError) throw new ProviderError(error.message, retryableStatus(error.status), error.status);
    throw error;
  }
}

/** Gupshup answers 400 'Template Does not exists.' for a template already gone; that is success for a removal. */
const alreadyGone = (error: unknown) => error instanceof PartnerApiError && /does not exist/i.test(error.message);

/** An app's templates through the partner API (gupshup.md §7), where the app name is the app id. */
function partnerTemplates(partner: GupshupPartnerApi, appId: string): TemplateCatalog {
  return {
    submit: (template) => viaPartner(async () => toProviderTemplate(await partner.createTemplate(appId, toPartnerTemplateFields(template)))),
    list: () => viaPartner(async () => (await partner.listTemplates(appId)).map(toProviderTemplate)),
    remove: (name, providerTemplateId) =>
      viaPartner(async () => {
        await partner.deleteTemplate(appId, name, providerTemplateId).catch((error: unknown) => {
          if (!alreadyGone(error)) throw error;
        });
      }),
    uploadSample: (file) => viaPartner(() => partner.uploadMedia(appId, file)),
  };
}

/** Gupshup signs nothing (gupshup.md §4.4): the secret in the webhook URL is the proof, and GET has no meaning. */
const gupshupWebhook: WebhookReceiver = {
  handshake: () => ({ status: 404, body: 'Not Found' }),
  authentic: () => true,
  parse: parseGupshupWebhook,
};

/**
 * Gupshup's classic Access API (`/wa/api/v1/msg`, `/wa/api/v1/template/msg`), form-encoded with `apikey`,
 * and the partner API for templates and read receipts, where the app name is the app id.
 */
export function createGupshupProvider(options: GupshupProviderOptions): MessagingProvider<GupshupAccount> {
  const apiUrl = () => (typeof options.apiUrl === 'string' ? options.apiUrl : options.apiUrl()).replace(/\/$/, '');

  async function post(path: string, account: GupshupAccount, fields: Record<string, string>): Promise<SendResult> {
    let response: ServiceAnswer;
    try {
      response = await callService(`${apiUrl()}${path}`, {
        method: 'POST',
        headers: { apikey: account.apiKey, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams(fields).toString(),
        timeoutMs: options.sendTimeoutMs ?? SEND_TIMEOUT_MS,
      });
    } catch (error) {
      // A refused connection never reached Gupshup; a timeout or an answer cut short may have, so it is uncertain.
      const uncertain = error instanceof ServiceCallUncertain;
      throw new ProviderError(`Gupshup no respondió: ${(error as Error).message}`, true, undefined, uncertain);
    }
    let body: { status?: string; messageId?: string; message?: string } = {};
    try {
      body = response.text ? JSON.parse(response.text) : {};
    } catch {
      // A non-JSON answer (an HTML error page from a proxy) is reported by status below.
    }
    if (response.ok && body.status === 'submitted' && body.messageId) return { providerMessageId: body.messageId };
    // The message keeps Gupshup's own words for the logs; the failure is what people read, an outage's too (Gupshup
    // publishes its 500), so a send that gave up after its retries fails in Spanish.
    const message = body.message ?? `Gupshup respondió ${response.status}`;
    const failure = gupshupSendFailure(response.status, body.message);
    throw new ProviderError(message, retryableStatus(response.status), response.status, false, failure);
  }

  return {
    name: 'gupshup',
    line(account): WhatsAppLine {
      const templates = partnerTemplates(options.partner, account.appName);
      return {
        provider: 'gupshup',
        send(destination, content: OutboundContent) {
          if (!account.apiKey) return Promise.reject(new ProviderError(NO_PLATFORM_API_KEY, false));
          const common = { channel: 'whatsapp', source: account.sourceNumber, destination, 'src.name': account.appName };
          if (content.type === 'template') {
            return post('/wa/api/v1/template/msg', account, { ...common, ...toGupshupTemplateFields(content) });
          }
          return post('/wa/api/v1/msg', account, { ...common, message: JSON.stringify(toGupshupMessage(content)) });
        },
        // A read receipt is idempotent, so a partner API that never answered is simply retried.
        markRead: (whatsappMessageId) => viaPartner(() => options.partner.markRead(account.appName, whatsappMessageId)),
        downloadMedia: (media) => options.downloadMedia(media.ref),
        templates,
        webhook: gupshupWebhook,
        async check() {
          const checks = [
            account.apiKey ? { ok: true, message: 'La plataforma tiene la clave de la API de Gupshup.' } : { ok: false, message: NO_PLATFORM_API_KEY },
          ];
          try {
            await templates.list();
            checks.push({ ok: true, message: `Gupshup reconoce la app ${account.appName}.` });
          } catch (error) {
            checks.push({ ok: false, message: `Gupshup no aceptó la app ${account.appName}: ${(error as Error).message}` });
          }
          return checks;
        },
      };
    },
  };
}
