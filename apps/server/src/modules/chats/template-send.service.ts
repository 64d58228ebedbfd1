import { fillPlaceholders, variablesByNumber, type TemplateButton, type TemplateVariables } from '@embudo/contracts/http/templates';
import type { InitiateConversationRequest, SendTemplateRequest } from '@embudo/contracts/http/chats';
import { badRequest, forbidden, notFound } from '../../platform/errors/app-error.ts';
import { canSeeFunnel, requireWriter } from '../../platform/policy/policy.ts';
import { findOrCreateCard, toCardUpdate, COLUMN_NOT_FOUND, firstColumn, visibleColumnPlace } from '../funnels/index.ts';
import { templateForSending, type TemplateRow } from '../templates/index.ts';
import { MARKETING_OPTED_OUT } from '@embudo/contracts/http/chats';
import { assertMarketingAllowed, refusesMarketing, upsertContact } from './contacts.service.ts';
import { emitNewMessage } from './inbound.service.ts';
import { toMessageDto } from './message-dto.ts';
import { storeOutbound, queueOutbound, writableCard, type Author, type OutboundDeps, type OutboundDraft } from './outbound.service.ts';

export const NO_VISIBLE_COLUMN = 'No tienes acceso a ningún funnel con columnas donde crear el chat.';
export const CONTACT_IN_HIDDEN_FUNNEL = 'Este contacto ya tiene un chat en un funnel al que no tienes acceso.';

/** What a sent template keeps so the chat (and the customer's phone) can show it as WhatsApp does. */
export interface TemplateMessagePayload {
  templateProviderId: string;
  params: string[];
  headerMedia?: { type: 'image' | 'video' | 'document'; url: string; fileName?: string };
  template: {
    name: string;
    language_code: string;
    header: { type: 'TEXT'; text: string } | { type: 'IMAGE' | 'VIDEO' | 'DOCUMENT'; media_url: string } | null;
    footer: string | null;
    buttons: TemplateButton[];
  };
}

const byNumber = (a: string, b: string) => Number(a) - Number(b);

/**
 * The outbound draft of an approved template: every variable filled (in `{{N}}` order, as Gupshup's
 * positional params), the body with the values in place as the stored text, the header, footer and buttons.
 */
export function templateDraft(template: TemplateRow, variables: TemplateVariables | null | undefined): OutboundDraft {
  const values = variablesByNumber(variables);
  const numbers = Object.keys(template.variablesSchema).sort(byNumber);
  const missing = numbers.find((n) => !values[n]?.trim());
  if (missing) throw badRequest(`Completa la ${template.variablesSchema[missing]?.label ?? `Variable ${missing}`} de la plantilla.`);
  const params = numbers.map((n) => values[n]!.trim());
  const filled = Object.fromEntries(numbers.map((n, index) => [n, params[index]!]));

  const header = template.header;
  let payloadHeader: TemplateMessagePayload['template']['header'] = null;
  let headerMedia: TemplateMessagePayload['headerMedia'];
  if (header?.type === 'TEXT') {
    payloadHeader = { type: 'TEXT', text: header.text };
  } else if (header) {
    // WhatsApp needs the header file with every send of a media template.
    if (!header.media_url) throw badRequest('La plantilla tiene un encabezado multimedia sin archivo: edítala y sube el archivo de nuevo.');
    payloadHeader = { type: header.type, media_url: header.media_url };
    const kind = header.type.toLowerCase() as 'image' | 'video' | 'document';
    headerMedia = { type: kind, url: header.media_url, ...(kind === 'document' ? { fileName: `${template.name}.pdf` } : {}) };
  }
  const payload: TemplateMessagePayload = {
    templateProviderId: template.providerTemplateId!,
    params,
    ...(headerMedia ? { headerMedia } : {}),
    template: { name: template.name, language_code: template.languageCode, header: payloadHeader, footer: template.footer, buttons: template.buttons },
  };
  return {
    type: 'template',
    text: fillPlaceholders(template.bodyText, filled),
    templateId: template.id,
    templateCategory: template.category,
    payload: payload as unknown as Record<string, unknown>,
  };
}

/**
 * POST /api/message/template: an approved template on a chat, whether or not the 24-hour window is open; a marketing
 * one not to a customer who opted out of marketing.
 */
export async function sendTemplate(deps: OutboundDeps, author: Author, input: SendTemplateRequest) {
  const card = await writableCard(deps.db, author, input.cardId);
  const draft = templateDraft(await templateForSending(deps.db, author.tenantId, input.templateId), input.variables);
  await assertMarketingAllowed(deps.db, author.tenantId, card.contactId, draft.templateCategory);
  return toMessageDto(await queueOutbound(deps, { tenantId: author.tenantId, userId: author.actor.userId }, card, draft, { tempId: input.tempId }));
}

/**
 * POST /api/initiate-conversation: finds or creates the contact and its chat (a new one lands in the named
 * column, else the first column of the first funnel the user may see) and sends the template, all in one
 * transaction, so a refusal (a chat in a hidden funnel, a marketing template to a customer who opted out) leaves no
 * contact or chat behind.
 */
export async function initiateConversation(deps: OutboundDeps, author: Author, input: InitiateConversationRequest) {
  requireWriter(author.actor);
  const draft = templateDraft(await templateForSending(deps.db, author.tenantId, input.templateId), input.variables);
  const landing = input.columnId
    ? await visibleColumnPlace(deps.db, author.tenantId, author.actor, input.columnId)
    : await firstColumn(deps.db, author.tenantId, author.actor);
  if (!landing) throw input.columnId ? notFound(COLUMN_NOT_FOUND) : badRequest(NO_VISIBLE_COLUMN);

  const outcome = await deps.db.transaction(async (tx) => {
    const contact = await upsertContact(tx, author.tenantId, { phone: input.phoneNumber, isGroup: false });
    const { card, created } = await findOrCreateCard(tx, author.tenantId, contact, async () => landing);
    if (!canSeeFunnel(author.actor, card.funnelId)) throw forbidden(CONTACT_IN_HIDDEN_FUNNEL);
    if (refusesMarketing(draft.templateCategory, contact)) throw badRequest(MARKETING_OPTED_OUT);
    const stored = await storeOutbound(deps, tx, { tenantId: author.tenantId, userId: author.actor.userId }, card, draft, {});
    return { ...stored, created };
  });
  emitNewMessage(deps.events, author.tenantId, outcome.updatedCard, outcome.message, outcome.created);
  return { cardId: outcome.updatedCard.id, created: outcome.created, card: toCardUpdate(outcome.updatedCard), message: toMessageDto(outcome.message) };
}
