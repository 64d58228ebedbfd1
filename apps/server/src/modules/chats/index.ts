/**
 * The chats module's public face: the only file that other modules, app.ts and other modules' tests import
 * (docs/decisions/0012-module-boundaries.md). Messages, notes, scheduled sends, media and the inbound webhook.
 * Imports funnels, templates, tenants and usage.
 */
export { type ChatOutbound, chatsPlugin, createChatOutbound } from './chats.plugin.ts';
export { type ChatEvents, createChatEvents } from './chat-events.ts';
export { refusesMarketing, upsertContact, upsertContacts } from './contacts.service.ts';
export { emitNewMessage, type InboundBot } from './inbound.service.ts';
export type { WebhookIntake } from './webhook-intake.ts';
export { announceNote, findMessageKind, latestCustomerMessageId, newestMessage, recentMessages, storeSystemNote } from './conversation.service.ts';
export { countMessagesSentBetween } from './message-counts.ts';
export { publishStatusChange } from './message-events.ts';
export { type MessageRow, toMessageDto } from './message-dto.ts';
export { type Author, type OutboundDeps, type OutboundDraft, queueOutbound, storeOutbound, storeOutbounds, writableCard } from './outbound.service.ts';
export { chosenReply, normaliseChoiceText, pressedReply, type ReplyChoice, replyChoicesDraft } from './reply-choices.ts';
export { sandboxPhoneCrm } from './sandbox-phone-crm.ts';
export { CONTACT_IN_HIDDEN_FUNNEL, templateDraft } from './template-send.service.ts';
export { announceWithdrawnScheduled, scheduleAiMessage, type ScheduleDeps, withdrawAiScheduled } from './schedule.service.ts';
export { announceTranscript, findVoiceNote, saveTranscript } from './transcripts.service.ts';
export { deliveryActivity, recentFailedSends, recentRejections, silentTenantIds, WRONG_SECRET_RECORDS_PER_HOUR } from './webhook-activity.ts';
