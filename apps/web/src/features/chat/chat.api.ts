import { api } from '../../shared/api-client/api-client.ts';

export type MessageSender = 'user' | 'ai' | 'contact';
export type MessageAck = -1 | 0 | 1 | 2 | 3;

/** Spec 01 §3 Message, as GET /api/cards/{id}/messages and message:new carry it. */
export interface ChatMessage {
  id: string;
  cardId: string;
  sender: MessageSender;
  participantName?: string | null;
  text?: string | null;
  type: string;
  mediaUrl?: string | null;
  mediaMime?: string | null;
  fileName?: string | null;
  timestamp: string;
  raw_timestamp: number;
  ack: MessageAck;
  error?: string | null;
  quotedMessageId?: string | null;
  quotedMessageText?: string | null;
  quotedMessageSender?: string | null;
  tempId?: string | null;
  payload?: Record<string, unknown> | null;
}

export interface ChatNote {
  id: string;
  author: string | null;
  text: string;
  timestamp?: string;
  raw_timestamp: number;
}

export interface ScheduledItem {
  id: string;
  author: string | null;
  scheduledFor: string;
  text: string | null;
  templateId: string | null;
  status: string;
  raw_timestamp: number;
}

export type TimelineItem = ({ kind: 'message' } & ChatMessage) | ({ kind: 'note' } & ChatNote) | ({ kind: 'scheduled' } & ScheduledItem);

export interface TimelinePage {
  items: TimelineItem[];
  nextCursor: string | null;
}

/** A template as the chat sends it (spec 01 §3 Template). */
export interface ApprovedTemplate {
  id: string;
  name: string;
  category: string;
  body_text: string;
  status: string;
  variables_schema: Record<string, { type: string; label: string }> | null;
}

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
    api.post<ScheduledItem>('/api/message/schedule', body),
  addNote: (cardId: string, text: string) => api.post<ChatNote>('/api/note', { cardId, text }),
  markRead: (cardId: string) => api.post<unknown>(`${cardPath(cardId)}/mark-read`),
  toggleAi: (cardId: string, enabled: boolean) => api.put<unknown>(`${cardPath(cardId)}/toggle-ai`, { enabled }),
  archive: (cardId: string) => api.post<unknown>(`${cardPath(cardId)}/archive`),
  /** All of the tenant's templates, or only the approved ones; the answer is an array or an object holding `templates` (spec 01 §7). */
  templates: async (status?: 'APPROVED'): Promise<ApprovedTemplate[]> => {
    const answer = await api.get<unknown>(`/api/templates?status=${status ?? ''}`);
    const list = Array.isArray(answer) ? answer : (answer as { templates?: unknown } | undefined)?.templates;
    const templates = Array.isArray(list) ? (list as ApprovedTemplate[]) : [];
    return status ? templates.filter((template) => template.status === status) : templates;
  },
  approvedTemplates: () => chatApi.templates('APPROVED'),
};
