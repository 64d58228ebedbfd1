import { createHmac, timingSafeEqual } from 'node:crypto';
import { secretMatches } from '../../platform/auth/secrets.ts';
import {
  ProviderError,
  type ConnectionCheck,
  type MessagingProvider,
  type MetaAccount,
  type ProviderTemplate,
  type TemplateCatalog,
  type WebhookDelivery,
  type WebhookReceiver,
  type WhatsAppLine,
} from '../provider.ts';
import { createGraphClient, type GraphAnswer, type GraphClientOptions, type GraphCredentials } from './meta-graph.client.ts';
import type { MetaMediaFetcher } from './meta-media.ts';
import { toMetaMessage, toMetaReaction, toMetaReadReceipt } from './meta-message.mapper.ts';
import { fromMetaTemplate, toMetaTemplate } from './meta-template.mapper.ts';
import { parseMetaWebhook } from './meta-webhook.parser.ts';

/**
 * Meta's WhatsApp Cloud API, directly (meta-cloud.md): `POST /{phone-number-id}/messages` for every kind and for
 * read receipts, `/{waba-id}/message_templates` for templates (samples through the resumable upload API), media in
 * two steps, the webhook's GET handshake and its `X-Hub-Signature-256` over the raw body.
 */
export interface MetaCloudProviderOptions extends GraphClientOptions {
  /** The media download's second step: live, Meta's hosts only through the guarded client; sandbox, the fake's own files. */
  fetchMedia: MetaMediaFetcher;
}

/** Meta's ids are numbers; anything else in a path would be a path of our own making. */
const GRAPH_ID = /^[0-9A-Za-z_.-]{1,100}$/;
/** A resumable upload session id (`upload:…?sig=…`), answered by Meta. */
const UPLOAD_SESSION = /^upload:[\w\-=:?&.%]{1,2000}$/;
/** Pages of the template list followed at most (§4.2 paging is unconfirmed): 50 × 20 = 1,000 templates. */
const MAX_TEMPLATE_PAGES = 20;

function graphId(value: string, what: string): string {
  if (!GRAPH_ID.test(value)) throw new ProviderError(`${what} no es un identificador de Meta válido.`, false);
  return value;
}

const firstString = (value: unknown) => (typeof value === 'string' && value ? value : undefined);

/** Meta signs `sha256=<hex>` of the raw bytes with the app secret (§3.2); compared in constant time. */
export function metaSignatureValid(appSecret: string, delivery: WebhookDelivery): boolean {
  if (!appSecret) return false;
  const header = delivery.headers['x-hub-signature-256'];
  const signature = Array.isArray(header) ? header[0] : header;
  const match = signature && /^sha256=([0-9a-f]{64})$/i.exec(signature.trim());
  if (!match) return false;
  const expected = createHmac('sha256', appSecret).update(delivery.rawBody).digest();
  return timingSafeEqual(expected, Buffer.from(match[1]!, 'hex'));
}

function metaWebhook(account: MetaAccount): WebhookReceiver {
  return {
    // §3.1: answer the raw challenge only to `subscribe` with our verify token.
    handshake(query) {
      const mode = query['hub.mode'];
      const token = query['hub.verify_token'];
      const challenge = query['hub.challenge'];
      const valid =
        mode === 'subscribe' &&
        typeof token === 'string' &&
        Boolean(account.verifyToken) &&
        secretMatches(account.verifyToken, token) &&
        typeof challenge === 'string' &&
        /^[\w.-]{1,200}$/.test(challenge);
      return valid ? { status: 200, body: challenge } : { status: 403, body: 'Forbidden' };
    },
    authentic: (delivery) => metaSignatureValid(account.appSecret, delivery),
    parse: (body, receivedAt) => parseMetaWebhook(body, receivedAt, account.phoneNumberId || undefined),
  };
}

export function createMetaCloudProvider(options: MetaCloudProviderOptions): MessagingProvider<MetaAccount> {
  const graph = createGraphClient(options);
  /** The app a token belongs to (`GET /app`), which owns the resumable uploads; cached per token. */
  const appIds = new Map<string, string>();

  function templates(account: MetaAccount, credentials: GraphCredentials): TemplateCatalog {
    const waba = () => graphId(account.wabaId, 'El WABA id');
    return {
      async submit(template) {
        const answer = await graph.call(credentials, `/${waba()}/message_templates`, { json: toMetaTemplate(template) });
        const id = firstString(answer.id) ?? (typeof answer.id === 'number' ? String(answer.id) : undefined);
        if (!id) throw new ProviderError('Meta no devolvió el id de la plantilla.', false);
        return { id, name: template.name, languageCode: template.languageCode, status: 'PENDING', reason: null };
      },
      async list() {
        const found: ProviderTemplate[] = [];
        let after: string | undefined;
        for (let page = 0; page < MAX_TEMPLATE_PAGES; page++) {
          const answer: GraphAnswer = await graph.call(credentials, `/${waba()}/message_templates`, {
            query: { fields: 'id,name,status,category,language,rejected_reason', limit: 50, after },
          });
          const data = Array.isArray(answer.data) ? answer.data : [];
          for (const item of data) {
            const template = fromMetaTemplate(item);
            if (template) found.push(template);
          }
          const paging = answer.paging as { next?: unknown; cursors?: { after?: unknown } } | undefined;
          after = firstString(paging?.cursors?.after);
          if (!paging?.next || !after || data.length === 0) break;
        }
        return found;
      },
      async remove(name, providerTemplateId) {
        // A Gupshup-era id (a UUID) names nothing at Meta: by name alone then.
        const hsmId = providerTemplateId && /^\d+$/.test(providerTemplateId) ? providerTemplateId : undefined;
        try {
          await graph.call(credentials, `/${waba()}/message_templates`, { method: 'DELETE', query: { name, hsm_id: hsmId } });
        } catch (error) {
          // A template already gone counts as removed (the port's rule).
          if (error instanceof ProviderError && error.status === 404) return;
          if (error instanceof ProviderError && /does not exist|not found|no existe/i.test(error.message)) return;
          throw error;
        }
      },
      async uploadSample(file) {
        let appId = appIds.get(account.accessToken);
        if (!appId) {
          appId = firstString((await graph.call(credentials, '/app', { query: { fields: 'id' } })).id);
          if (!appId) throw new ProviderError('Meta no dijo a qué app pertenece el token.', false);
          appIds.set(account.accessToken, appId);
        }
        const session = firstString(
          (
            await graph.call(credentials, `/${graphId(appId, 'La app')}/uploads`, {
              method: 'POST',
              query: { file_name: file.fileName, file_length: file.data.length, file_type: file.mime },
            })
          ).id,
        );
        if (!session || !UPLOAD_SESSION.test(session)) throw new ProviderError('Meta no abrió la subida del archivo de ejemplo.', false);
        const uploaded = await graph.call(credentials, `/${session}`, {
          authScheme: 'OAuth',
          raw: { body: new Uint8Array(file.data), headers: { file_offset: '0', 'content-type': file.mime } },
        });
        const handle = firstString(uploaded.h);
        if (!handle) throw new ProviderError('Meta no devolvió el identificador del archivo de ejemplo.', false);
        return handle;
      },
    };
  }

  async function check(account: MetaAccount, credentials: GraphCredentials): Promise<ConnectionCheck[]> {
    const checks: ConnectionCheck[] = [];
    try {
      const number = await graph.call(credentials, `/${graphId(account.phoneNumberId, 'El phone number id')}`, {
        query: { fields: 'display_phone_number,verified_name,quality_rating' },
      });
      const display = firstString(number.display_phone_number) ?? account.phoneNumberId;
      const name = firstString(number.verified_name);
      checks.push({ ok: true, message: `Meta reconoce el número ${display}${name ? ` (${name})` : ''} con este token y este secreto de la app.` });
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      checks.push({ ok: false, message: numberProblem(error) });
      if (error.failure?.kind === 'token_expired' || /appsecret_proof/i.test(error.message)) return checks;
    }
    try {
      await graph.call(credentials, `/${graphId(account.wabaId, 'El WABA id')}/message_templates`, { query: { limit: 1, fields: 'id' } });
      checks.push({ ok: true, message: `La cuenta de WhatsApp Business ${account.wabaId} responde: las plantillas se gestionan allí.` });
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      checks.push({
        ok: false,
        message: `Meta no deja leer las plantillas de la cuenta ${account.wabaId}: revisa el WABA id y que el token tenga el permiso whatsapp_business_management. (${error.message})`,
      });
    }
    return checks;
  }

  return {
    name: 'meta',
    line(account): WhatsAppLine {
      const credentials: GraphCredentials = { accessToken: account.accessToken, appSecret: account.appSecret || undefined };
      const messagesPath = () => `/${graphId(account.phoneNumberId, 'El phone number id')}/messages`;
      return {
        provider: 'meta',
        async send(destination, content) {
          const answer = await graph.call(credentials, messagesPath(), { json: toMetaMessage(destination, content) });
          const id = firstString((Array.isArray(answer.messages) ? (answer.messages[0] as { id?: unknown } | undefined) : undefined)?.id);
          // Meta answered 2xx without the message id: it may have gone out, so it is not resent.
          if (!id) throw new ProviderError('Meta no devolvió el id del mensaje.', false, 200, true);
          return { providerMessageId: id };
        },
        async react(destination, whatsappMessageId, emoji) {
          await graph.call(credentials, messagesPath(), { json: toMetaReaction(destination, whatsappMessageId, emoji) });
        },
        async markRead(whatsappMessageId) {
          const answer = await graph.call(credentials, messagesPath(), { json: toMetaReadReceipt(whatsappMessageId) });
          // `{ "success": true }` (§2.7, exact body unconfirmed): only an explicit false is a refusal.
          if (answer.success === false) throw new ProviderError('Meta no marcó el mensaje como leído.', false, 200);
        },
        async downloadMedia(media) {
          const found = await graph.call(credentials, `/${graphId(media.ref, 'El id del archivo')}`);
          const url = firstString(found.url);
          if (!url) throw new ProviderError('Meta no dio la dirección del archivo.', false);
          const file = await options.fetchMedia(url, account.accessToken);
          return { data: file.data, contentType: firstString(found.mime_type) ?? file.contentType };
        },
        templates: templates(account, credentials),
        webhook: metaWebhook(account),
        check: () => check(account, credentials),
      };
    },
  };
}

/** What the first check's failure means for the person filling the dialog. */
function numberProblem(error: ProviderError): string {
  if (error.failure?.kind === 'token_expired') {
    return 'El token de acceso no es válido o venció (código 190): genera un token permanente de un usuario del sistema en Meta Business y pégalo de nuevo.';
  }
  if (/appsecret_proof/i.test(error.message))
    return 'El secreto de la app (app secret) no corresponde a la app del token: cópialo de Configuración básica de la app en Meta.';
  if (error.failure?.kind === 'unauthorized') {
    return `El token no tiene permiso sobre el número: dale los permisos whatsapp_business_messaging y whatsapp_business_management. (${error.message})`;
  }
  if (error.status !== undefined && error.status < 500 && error.failure) {
    return `Meta no encuentra el número con ese phone number id (o el token no tiene acceso a él): cópialo de WhatsApp > Configuración de la API. (${error.message})`;
  }
  return `Meta no respondió bien: ${error.message}`;
}
