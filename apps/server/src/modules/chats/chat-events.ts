import type { ServerToClientEvents } from '@embudo/contracts/realtime/events';
import type { Db } from '../../platform/db/database.ts';
import type { Realtime } from '../../platform/realtime/realtime.ts';
import { findCard } from '../funnels/cards.service.ts';

type EventArgs<E extends keyof ServerToClientEvents> = Parameters<ServerToClientEvents[E]>;

/**
 * Chat events carry the funnel they belong to, so delivery can be narrowed to the users who may
 * see that funnel; today every member of the tenant's room receives them.
 */
export interface ChatEvents {
  emit<E extends keyof ServerToClientEvents>(tenantId: string, funnelId: string, event: E, ...args: EventArgs<E>): void;
  emitForCard<E extends keyof ServerToClientEvents>(tenantId: string, cardId: string, event: E, ...args: EventArgs<E>): Promise<void>;
}

export function createChatEvents(db: Db, realtime: Pick<Realtime, 'emitToTenant'>): ChatEvents {
  return {
    emit: (tenantId, _funnelId, event, ...args) => realtime.emitToTenant(tenantId, event, ...args),
    emitForCard: async (tenantId, cardId, event, ...args) => {
      const card = await findCard(db, tenantId, cardId);
      if (card) realtime.emitToTenant(tenantId, event, ...args);
    },
  };
}
