import type { Realtime } from '../../platform/realtime/realtime.ts';
import type { BoardEvents } from './board-edit.service.ts';
import { toCardUpdate } from './cards.service.ts';

/** Board changes as the open boards hear them: one socket event per change, to the members who see that funnel. */
export function realtimeBoardEvents(realtime: Pick<Realtime, 'emitToFunnel' | 'emitToTenant'>): BoardEvents {
  return {
    boardUpdated: (tenantId, funnelId) => realtime.emitToFunnel(tenantId, funnelId, 'board_updated', { funnelId }),
    funnelsUpdated: (tenantId) => realtime.emitToTenant(tenantId, 'funnels_updated', {}),
    cardUpdated: (tenantId, card) => realtime.emitToFunnel(tenantId, card.funnelId, 'card_updated', toCardUpdate(card)),
    cardMoved: (tenantId, fromFunnelId, card) => {
      const update = toCardUpdate(card);
      realtime.emitToFunnel(tenantId, fromFunnelId, 'board_updated', { funnelId: fromFunnelId, card: update });
      if (card.funnelId !== fromFunnelId) realtime.emitToFunnel(tenantId, card.funnelId, 'board_updated', { funnelId: card.funnelId, card: update });
      realtime.emitToFunnel(tenantId, card.funnelId, 'card_updated', update);
    },
  };
}
