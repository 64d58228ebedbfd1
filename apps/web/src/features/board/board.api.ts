import type { columnColors, GeminiConfig, QuickReply } from '@embudo/contracts/http/funnels';
import { api } from '../../shared/api-client/api-client.ts';

export type { GeminiConfig, QuickReply };

export type ColumnColor = (typeof columnColors)[number];

export interface FunnelSummary {
  id: string;
  name: string;
  unreadCount: number;
}

/** A card summary as the board carries it: never the message history. */
export interface BoardCard {
  id: string;
  funnelId: string;
  columnId: string;
  title: string;
  phone: string | null;
  isGroup: boolean;
  unreadCount: number;
  lastMessageType: string | null;
  lastMessageText: string | null;
  lastActivityAt: string | null;
  contactLastMessageAt: string | null;
  aiEnabled: boolean;
}

export interface BoardColumn {
  id: string;
  title: string;
  funnelId: string;
  color: ColumnColor | string | null;
  funnelName?: string;
  gemini_config?: GeminiConfig | null;
  assistant_bot_id?: string | null;
  cards: BoardCard[];
}

export interface Board {
  funnel: { id: string; name: string };
  columns: BoardColumn[];
  counters: { unreadIndividual: number; unreadGroup: number; totalContacts: number };
}

export interface ColumnSummary {
  id: string;
  title: string;
  funnelId: string;
  funnelName?: string;
  color?: string | null;
  gemini_config?: GeminiConfig | null;
  assistant_bot_id?: string | null;
}

/** What PUT /api/columns/{id} may carry (spec 01 §7 Columns). */
export interface ColumnChanges {
  title?: string;
  color?: ColumnColor;
  gemini_config?: GeminiConfig | null;
  assistant_bot_id?: string | null;
}

const id = (value: string) => encodeURIComponent(value);

export const boardApi = {
  funnels: () => api.get<FunnelSummary[]>('/api/funnels/summary'),
  createFunnel: (name: string) => api.post<FunnelSummary>('/api/funnels', { name }),
  renameFunnel: (funnelId: string, name: string) => api.put<FunnelSummary>(`/api/funnels/${id(funnelId)}`, { name }),
  board: (funnelId: string) => api.get<Board>(`/api/funnels/${id(funnelId)}/board`),
  columns: (funnelId: string) => api.get<ColumnSummary[]>(`/api/funnels/${id(funnelId)}/columns`),
  createColumn: (funnelId: string, title: string) => api.post<ColumnSummary>('/api/columns', { funnelId, title }),
  updateColumn: (columnId: string, changes: ColumnChanges) => api.put<ColumnSummary>(`/api/columns/${id(columnId)}`, changes),
  deleteColumn: (columnId: string) => api.delete<void>(`/api/columns/${id(columnId)}`),
  toggleColumnAi: (columnId: string, enabled: boolean) => api.post<{ updated: number; enabled: boolean }>(`/api/columns/${id(columnId)}/toggle-cards-ai`, { enabled }),
  quickReplies: (columnId: string) => api.get<QuickReply[]>(`/api/columns/${id(columnId)}/quick-replies`),
  createQuickReply: (body: { columnId: string; title: string; text: string }) => api.post<QuickReply>('/api/quick-replies', body),
  updateQuickReply: (quickReplyId: string, body: { title: string; text: string }) => api.put<QuickReply>(`/api/quick-replies/${id(quickReplyId)}`, body),
  deleteQuickReply: (quickReplyId: string) => api.delete<void>(`/api/quick-replies/${id(quickReplyId)}`),
  assignedTemplates: (columnId: string) => api.get<{ templateIds: string[] }>(`/api/columns/${id(columnId)}/assigned-templates`),
  assignTemplates: (columnId: string, templateIds: string[]) => api.put<{ templateIds: string[] }>(`/api/columns/${id(columnId)}/assigned-templates`, { templateIds }),
  uploadToolFile: (columnId: string, file: File) => {
    const form = new FormData();
    form.append('tool_file', file, file.name);
    return api.post<{ fileName: string; filePath: string }>(`/api/columns/${id(columnId)}/tools/upload`, form);
  },
  moveCard: (cardId: string, targetColumnId: string) => api.post<BoardCard>('/api/card/move', { cardId, targetColumnId }),
  renameCard: (cardId: string, title: string) => api.put<BoardCard>(`/api/cards/${id(cardId)}`, { title }),
  initiateConversation: (body: { templateId: string; phoneNumber: string; variables: Record<string, string>; columnId?: string }) =>
    api.post<unknown>('/api/initiate-conversation', body),
};
