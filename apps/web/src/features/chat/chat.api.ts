import type { ChatMessage, NoteDto, ScheduledMessageDto, SuggestReplyResponse, SummarizeResponse, Timeline } from '@embudo/contracts/http/chats';
import type { CardSummary } from '@embudo/contracts/http/funnels';
import type { TemplateDto } from '@embudo/contracts/http/templates';
import { api } from '../../shared/api-client/api-client.ts';

export type { ChatContext, ChatMessage, ChatNote, ScheduledItem, TimelineItem } from '@embudo/contracts/http/chats';
export type MessageSender = ChatMessage['sender'];
/** Spec 01 §3 Ack values: -1 error, 0 sending, 1 sent, 2 delivered, 3 read. */
export type MessageAck = ChatMessage['ack'];
/** One page of GET /api/cards/{id}/messages, as the chat reads it; every page repeats the chat's context (issue 43). */
export type TimelinePage = Pick<Timeline, 'items' | 'nextCursor' | 'context'>;
/** A template as the chat sends it (spec 01 §3 Template). */
export type ApprovedTemplate = TemplateDto;

const cardPath = (cardId: string) => `/api/cards/${encodeURIComponent(cardId)}`;

export const chatApi = {
  timeline: (cardId: string, cursor?: string | null, limit = 50) => {
    const query = new URLSearchParams({ limit: String(limit) });
    if (cursor) query.set('cursor', cursor);
    return api.get<TimelinePage>(`${cardPath(cardId)}/messages?${query.toString()}`);
  },
  sendText: (body: { cardId: string; text: string; tempId: string; quotedMessageId?: string | null }) => api.post<ChatMessage>('/api/message', body),
  sendMedia: (body: { cardId: string; file: Blob; fileName: string; caption?: string; tempId: string; quotedMessageId?: string | null }) => {
    const form = new FormData();
    form.append('cardId', body.cardId);
    form.append('tempId', body.tempId);
    if (body.caption) form.append('caption', body.caption);
    if (body.quotedMessageId) form.append('quotedMessageId', body.quotedMessageId);
    form.append('media', body.file, body.fileName);
    return api.post<ChatMessage>('/api/message/media', form);
  },
  sendTemplate: (body: { cardId: string; templateId: string; variables: Record<string, string>; tempId: string }) =>
    api.post<ChatMessage>('/api/message/template', body),
  schedule: (body: { cardId: string; scheduledFor: string; text?: string; templateId?: string; variables?: Record<string, string> }) =>
    api.post<ScheduledMessageDto>('/api/message/schedule', body),
  addNote: (cardId: string, text: string) => api.post<NoteDto>('/api/note', { cardId, text }),
  /** The member's reaction under a message (null takes it back); refused where the provider has no reactions. */
  react: (messageId: string, emoji: string | null) => api.post<ChatMessage>(`/api/messages/${messageId}/reaction`, { emoji }),
  /** The copilot (issue 15): a draft for the composer, never sent by itself. */
  suggestReply: (cardId: string) => api.post<SuggestReplyResponse>('/api/ai/suggest-reply', { cardId }),
  /** The copilot (issue 15): a summary of the conversation, kept as an internal note. */
  summarize: (cardId: string) => api.post<SummarizeResponse>('/api/ai/summarize', { cardId }),
  markRead: (cardId: string) => api.post<CardSummary>(`${cardPath(cardId)}/mark-read`),
  toggleAi: (cardId: string, enabled: boolean) => api.put<CardSummary>(`${cardPath(cardId)}/toggle-ai`, { enabled }),
  archive: (cardId: string) => api.post<CardSummary>(`${cardPath(cardId)}/archive`),
  /** All of the tenant's templates, or only the approved ones; the answer is an array or an object holding `templates` (spec 01 §7). */
  templates: async (status?: 'APPROVED'): Promise<ApprovedTemplate[]> => {
    const answer = await api.get<unknown>(`/api/templates?status=${status ?? ''}`);
    const list = Array.isArray(answer) ? answer : (answer as { templates?: unknown } | undefined)?.templates;
    const templates = Array.isArray(list) ? (list as ApprovedTemplate[]) : [];
    return status ? templates.filter((template) => template.status === status) : templates;
  },
  approvedTemplates: () => chatApi.templates('APPROVED'),
};
