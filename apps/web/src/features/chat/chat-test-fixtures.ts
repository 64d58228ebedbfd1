import { vi } from 'vitest';
import { installFakeApi, json } from '../../test/fake-api.ts';
import type { SessionTenant, SessionUser } from '@embudo/contracts/http/auth';
import { aTenant, aUser, storeSession } from '../../test/session-fixture.ts';
import type { Board, BoardCard } from '../board/board.api.ts';
import type { ChatMessage, TimelineItem } from './chat.api.ts';

type Listener = (...args: unknown[]) => void;

/** A socket.io-client stand-in whose server events the test can emit. */
export function createEmittingSocket() {
  const listeners = new Map<string, Set<Listener>>();
  const socket = {
    active: true,
    connected: true,
    on: (event: string, listener: Listener) => {
      if (!listeners.has(event)) listeners.set(event, new Set());
      listeners.get(event)!.add(listener);
    },
    off: (event: string, listener: Listener) => listeners.get(event)?.delete(listener),
    emit: () => undefined,
    connect: () => undefined,
    disconnect: () => undefined,
    removeAllListeners: () => listeners.clear(),
    io: { on: () => undefined, removeAllListeners: () => undefined },
    serverEmit: (event: string, payload: unknown) => listeners.get(event)?.forEach((listener) => listener(payload)),
  };
  return socket;
}

export const FUNNEL_ID = 'f1';

export function aCard(overrides: Partial<BoardCard> = {}): BoardCard {
  return {
    id: 'c1',
    funnelId: FUNNEL_ID,
    columnId: 'col1',
    title: 'Lucía Pérez',
    phone: '5215512345678',
    isGroup: false,
    unreadCount: 0,
    lastMessageType: 'text',
    lastMessageText: 'Hola',
    lastActivityAt: new Date().toISOString(),
    contactLastMessageAt: new Date(Date.now() - 60 * 60_000).toISOString(),
    aiEnabled: false,
    ...overrides,
  };
}

export function aMessage(overrides: Partial<ChatMessage> = {}): TimelineItem {
  const at = Date.now() - 30 * 60_000;
  return {
    kind: 'message',
    id: `m-${Math.random().toString(36).slice(2)}`,
    cardId: 'c1',
    sender: 'contact',
    participantName: null,
    text: 'Hola',
    type: 'text',
    mediaUrl: null,
    mediaMime: null,
    fileName: null,
    timestamp: new Date(at).toISOString(),
    raw_timestamp: at,
    ack: 3,
    error: null,
    quotedMessageId: null,
    quotedMessageText: null,
    quotedMessageSender: null,
    tempId: null,
    templateId: null,
    payload: null,
    ...overrides,
  } as TimelineItem;
}

export function aBoard(cards: BoardCard[] = [aCard()]): Board {
  return {
    funnel: { id: FUNNEL_ID, name: 'Ventas' },
    columns: [
      {
        id: 'col1',
        title: 'Nuevos',
        funnelId: FUNNEL_ID,
        funnelName: 'Ventas',
        color: 'blue',
        gemini_config: null,
        assistant_bot_id: null,
        cards: cards.filter((card) => card.columnId === 'col1'),
        cardCount: cards.filter((card) => card.columnId === 'col1').length,
        nextCursor: null,
      },
      {
        id: 'col2',
        title: 'En curso',
        funnelId: FUNNEL_ID,
        funnelName: 'Ventas',
        color: 'green',
        gemini_config: null,
        assistant_bot_id: null,
        cards: cards.filter((card) => card.columnId === 'col2'),
        cardCount: cards.filter((card) => card.columnId === 'col2').length,
        nextCursor: null,
      },
    ],
    // As the server counts them: chats with unread messages, individual and group, and all chats of the funnel.
    counters: {
      unreadIndividual: cards.filter((card) => !card.isGroup && card.unreadCount > 0).length,
      unreadGroup: cards.filter((card) => card.isGroup && card.unreadCount > 0).length,
      totalContacts: cards.length,
    },
  };
}

/** A signed-in session (an owner on Starter unless told), one funnel with `board`, the card's timeline; more handlers may be added. */
export function installBoardApi(
  board: Board,
  items: TimelineItem[] = [],
  extra: Parameters<typeof installFakeApi>[0] = {},
  who: { user?: Partial<SessionUser>; tenant?: Partial<SessionTenant> } = {},
) {
  const user = aUser(who.user);
  const tenant = aTenant(who.tenant);
  const funnelList = [
    { id: FUNNEL_ID, name: 'Ventas', unreadCount: 0 },
    { id: 'f2', name: 'Soporte', unreadCount: 0 },
  ];
  storeSession(user, tenant);
  vi.stubGlobal('crypto', { ...globalThis.crypto, randomUUID: () => 'temp-uuid-1' });
  return installFakeApi({
    'GET /api/auth/me': () => json(200, { user, tenant }),
    'GET /t/acme/api/funnels/summary': () => json(200, funnelList),
    [`GET /t/acme/api/funnels/${FUNNEL_ID}/board`]: () => json(200, board),
    'GET /t/acme/api/funnels/shown-board': () => json(200, { funnels: funnelList, board }),
    'GET /t/acme/api/cards/c1/messages?limit=50': () => json(200, { items, nextCursor: null }),
    'POST /t/acme/api/cards/c1/mark-read': () => json(200, aCard({ unreadCount: 0 })),
    ...extra,
  });
}
