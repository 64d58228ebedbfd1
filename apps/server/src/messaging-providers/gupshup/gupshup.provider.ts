import { ProviderError, type MessagingProvider, type OutboundContent, type ProviderAccount, type SendResult } from '../provider.ts';
import { PartnerApiError, type GupshupPartnerApi } from './gupshup-partner.client.ts';
import { toGupshupMessage, toGupshupTemplateFields } from './gupshup-message.mapper.ts';
import { parseGupshupWebhook } from './gupshup-webhook.parser.ts';

const SEND_TIMEOUT_MS = 15_000;

export interface GupshupProviderOptions {
  /** May be lazy: the in-process sandbox only knows its port once the server listens. */
  apiUrl: string | (() => string);
  /** Read receipts exist only on the partner API's v3 passthrough (gupshup.md §2.2). */
  partner: Pick<GupshupPartnerApi, 'markRead'>;
  fetch?: typeof fetch;
}

const retryableStatus = (status: number | undefined) => status === undefined || status === 429 || status >= 500;

/**
 * Gupshup's classic Access API (`/wa/api/v1/msg`, `/wa/api/v1/template/msg`), form-encoded with `apikey`,
 * and the partner API for read receipts, where the app name is the app id as in the templates module.
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
    async markRead(account, whatsappMessageId) {
      try {
        await options.partner.markRead(account.appName, whatsappMessageId);
      } catch (error) {
        // No status means Gupshup never answered; a read receipt is idempotent, so that is simply retryable.
        if (error instanceof PartnerApiError) throw new ProviderError(error.message, retryableStatus(error.status), error.status);
        throw error;
      }
    },
    parseWebhook: parseGupshupWebhook,
  };
}
