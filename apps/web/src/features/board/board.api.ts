import type { AiStatus } from '@embudo/contracts/http/ai';
import type { InitiateConversationResponse } from '@embudo/contracts/http/chats';
import type {
  Board,
  CardSummary,
  ColumnCardsPage,
  ColumnCardsQuery,
  Column,
  columnColors,
  Funnel,
  GeminiConfig,
  NamedColumn,
  QuickReply,
  ShownBoard,
  ToolUpload,
  ToolFileState,
  UpdateColumnRequest,
} from '@embudo/contracts/http/funnels';
import { api } from '../../shared/api-client/api-client.ts';

export type { GeminiConfig, QuickReply };
export type { Board, BoardColumn, Column } from '@embudo/contracts/http/funnels';

export type ColumnColor = (typeof columnColors)[number];
export type FunnelSummary = Funnel;
/** A card summary as the board carries it: never the message history. */
export type BoardCard = CardSummary;
/** A column with its funnel's name (GET /api/funnels/{id}/columns, GET /api/columns/all). */
export type ColumnSummary = NamedColumn;
/** What PUT /api/columns/{id} may carry (spec 01 §7 Columns). */
export type ColumnChanges = UpdateColumnRequest;

const id = (value: string) => encodeURIComponent(value);

export const boardPaths = {
  funnels: '/api/funnels/summary',
  board: (funnelId: string) => `/api/funnels/${id(funnelId)}/board`,
  /** Both in one read, started early when the app opens on the board (board-preload.ts). */
  shownBoard: (selectedFunnelId: string | null) => `/api/funnels/shown-board${selectedFunnelId ? `?selected=${id(selectedFunnelId)}` : ''}`,
};

export const boardApi = {
  /** Which AI model answers (issue 15): the sandbox says "IA de prueba". */
  aiStatus: () => api.get<AiStatus>('/api/ai/status'),
  funnels: () => api.get<FunnelSummary[]>(boardPaths.funnels),
  createFunnel: (name: string) => api.post<FunnelSummary>('/api/funnels', { name }),
  renameFunnel: (funnelId: string, name: string) => api.put<FunnelSummary>(`/api/funnels/${id(funnelId)}`, { name }),
  board: (funnelId: string) => api.get<Board>(boardPaths.board(funnelId)),
  shownBoard: (selectedFunnelId: string | null) => api.get<ShownBoard>(boardPaths.shownBoard(selectedFunnelId)),
  /** A page of a column's chats: the next one after the board's, or a search or order over the whole column. */
  columnCards: (columnId: string, query: ColumnCardsQuery) => {
    const params = new URLSearchParams(Object.entries(query).flatMap(([key, value]) => (value === undefined ? [] : [[key, String(value)]])));
    return api.get<ColumnCardsPage>(`/api/columns/${id(columnId)}/cards?${params.toString()}`);
  },
  columns: (funnelId: string) => api.get<ColumnSummary[]>(`/api/funnels/${id(funnelId)}/columns`),
  createColumn: (funnelId: string, title: string) => api.post<Column>('/api/columns', { funnelId, title }),
  updateColumn: (columnId: string, changes: ColumnChanges) => api.put<Column>(`/api/columns/${id(columnId)}`, changes),
  deleteColumn: (columnId: string) => api.delete<void>(`/api/columns/${id(columnId)}`),
  toggleColumnAi: (columnId: string, enabled: boolean) =>
    api.post<{ updated: number; enabled: boolean }>(`/api/columns/${id(columnId)}/toggle-cards-ai`, { enabled }),
  quickReplies: (columnId: string) => api.get<QuickReply[]>(`/api/columns/${id(columnId)}/quick-replies`),
  createQuickReply: (body: { columnId: string; title: string; text: string }) => api.post<QuickReply>('/api/quick-replies', body),
  updateQuickReply: (quickReplyId: string, body: { title: string; text: string }) => api.put<QuickReply>(`/api/quick-replies/${id(quickReplyId)}`, body),
  deleteQuickReply: (quickReplyId: string) => api.delete<void>(`/api/quick-replies/${id(quickReplyId)}`),
  assignedTemplates: (columnId: string) => api.get<{ templateIds: string[] }>(`/api/columns/${id(columnId)}/assigned-templates`),
  assignTemplates: (columnId: string, templateIds: string[]) =>
    api.put<{ templateIds: string[] }>(`/api/columns/${id(columnId)}/assigned-templates`, { templateIds }),
  uploadToolFile: (columnId: string, file: File) => {
    const form = new FormData();
    form.append('tool_file', file, file.name);
    // The server adds the file to the column's assistant config and answers the tool it added.
    return api.post<ToolUpload>(`/api/columns/${id(columnId)}/tools/upload`, form);
  },
  toolFileStates: (columnId: string) => api.get<ToolFileState[]>(`/api/columns/${id(columnId)}/tools/files`),
  moveCard: (cardId: string, targetColumnId: string) => api.post<BoardCard>('/api/card/move', { cardId, targetColumnId }),
  renameCard: (cardId: string, title: string) => api.put<BoardCard>(`/api/cards/${id(cardId)}`, { title }),
  initiateConversation: (body: { templateId: string; phoneNumber: string; variables: Record<string, string>; columnId?: string }) =>
    api.post<InitiateConversationResponse>('/api/initiate-conversation', body),
};
