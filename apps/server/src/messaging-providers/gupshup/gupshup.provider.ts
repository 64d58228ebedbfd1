import { ProviderError, type MessagingProvider, type OutboundContent, type ProviderAccount, type SendResult, type TemplateCatalog } from '../provider.ts';
import { PartnerApiError, type GupshupPartnerApi } from './gupshup-partner.client.ts';
import { toGupshupMessage, toGupshupTemplateFields } from './gupshup-message.mapper.ts';
import { toPartnerTemplateFields, toProviderTemplate } from './gupshup-template.mapper.ts';
import { parseGupshupWebhook } from './gupshup-webhook.parser.ts';

const SEND_TIMEOUT_MS = 15_000;

export interface GupshupProviderOptions {
  /** May be lazy: the in-process sandbox only knows its port once the server listens. */
  apiUrl: string | (() => string);
  /** Templates, their media samples and read receipts exist only on the partner API (gupshup.md §2.2, §7). */
  partner: GupshupPartnerApi;
  fetch?: typeof fetch;
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

/** Templates through the partner API (gupshup.md §7), where the app name is the app id. */
function partnerTemplates(partner: GupshupPartnerApi): TemplateCatalog {
  return {
    submit: (appId, template) => viaPartner(async () => toProviderTemplate(await partner.createTemplate(appId, toPartnerTemplateFields(template)))),
    list: (appId) => viaPartner(async () => (await partner.listTemplates(appId)).map(toProviderTemplate)),
    remove: (appId, name, providerTemplateId) =>
      viaPartner(async () => {
        await partner.deleteTemplate(appId, name, providerTemplateId).catch((error: unknown) => {
          if (!alreadyGone(error)) throw error;
        });
      }),
    uploadSample: (appId, file) => viaPartner(() => partner.uploadMedia(appId, file)),
  };
}

/**
 * Gupshup's classic Access API (`/wa/api/v1/msg`, `/wa/api/v1/template/msg`), form-encoded with `apikey`,
 * and the partner API for templates and read receipts, where the app name is the app id.
 */
export function createGupshupProvider(options: GupshupProviderOptions): MessagingProvider {
  const doFetch = options.fetch ?? fetch;
  const apiUrl = () => (typeof options.apiUrl === 'string' ? options.apiUrl : options.apiUrl()).replace(/\/$/, '');

  async function post(path: string, account: ProviderAccount, fields: Record<string, string>): Promise<SendResult> {
    let response: Response;
    try {
      response = await doFetch(`${apiUrl()}${path}`, {
        method: 'POST',
        headers: { apikey: account.apiKey, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams(fields).toString(),
        signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
      });
    } catch (error) {
      // A refused connection never reached Gupshup; a timeout may have, so it is uncertain.
      const uncertain = (error as Error).name === 'TimeoutError' || (error as Error).name === 'AbortError';
      throw new ProviderError(`Gupshup no respondió: ${(error as Error).message}`, true, undefined, uncertain);
    }
    const text = await response.text();
    let body: { status?: string; messageId?: string; message?: string } = {};
    try {
      body = text ? JSON.parse(text) : {};
    } catch {
      // A non-JSON answer (an HTML error page from a proxy) is reported by status below.
    }
    if (response.ok && body.status === 'submitted' && body.messageId) return { providerMessageId: body.messageId };
    throw new ProviderError(body.message ?? `Gupshup respondió ${response.status}`, retryableStatus(response.status), response.status);
  }

  return {
    send(account, destination, content: OutboundContent) {
      const common = { channel: 'whatsapp', source: account.sourceNumber, destination, 'src.name': account.appName };
      if (content.type === 'template') {
        return post('/wa/api/v1/template/msg', account, { ...common, ...toGupshupTemplateFields(content) });
      }
      return post('/wa/api/v1/msg', account, { ...common, message: JSON.stringify(toGupshupMessage(content)) });
    },
    // A read receipt is idempotent, so a partner API that never answered is simply retried.
    markRead: (account, whatsappMessageId) => viaPartner(() => options.partner.markRead(account.appName, whatsappMessageId)),
    parseWebhook: parseGupshupWebhook,
    templates: partnerTemplates(options.partner),
  };
}
