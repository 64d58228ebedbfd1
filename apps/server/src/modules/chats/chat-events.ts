import type { ServerToClientEvents } from '@embudo/contracts/realtime/events';
import type { Db } from '../../platform/db/database.ts';
import type { Realtime } from '../../platform/realtime/realtime.ts';
import { findCard } from '../funnels/index.ts';

type EventArgs<E extends keyof ServerToClientEvents> = Parameters<ServerToClientEvents[E]>;

/** Chat events go to the room of the card's funnel: only members who may see that funnel receive them. */
export interface ChatEvents {
  emit<E extends keyof ServerToClientEvents>(tenantId: string, funnelId: string, event: E, ...args: EventArgs<E>): void;
  emitForCard<E extends keyof ServerToClientEvents>(tenantId: string, cardId: string, event: E, ...args: EventArgs<E>): Promise<void>;
}

export function createChatEvents(db: Db, realtime: Pick<Realtime, 'emitToFunnel'>): ChatEvents {
  return {
    emit: (tenantId, funnelId, event, ...args) => realtime.emitToFunnel(tenantId, funnelId, event, ...args),
    emitForCard: async (tenantId, cardId, event, ...args) => {
      const card = await findCard(db, tenantId, cardId);
      if (card) realtime.emitToFunnel(tenantId, card.funnelId, event, ...args);
    },
  };
}
