import { defineListener } from '../../platform/events/index.ts';
import { handleCustomerMessage, landingColumn, type AutobotDeps } from './autobot.service.ts';

/** The menu auto-bot answers customers in its waiting room, after the webhook that stored their message has answered. */
export function createAutobotListeners(deps: AutobotDeps) {
  return [
    defineListener({
      name: 'autobot.answer-customer-message',
      event: 'customer-message.stored',
      maxAttempts: 3,
      // The bot answers only in its waiting room, and only while it runs.
      selectRelevant: async (tx, tenantId, events) => {
        const waitingRoom = await landingColumn(tx, tenantId);
        return waitingRoom ? events.filter((event) => event.payload.columnId === waitingRoom.columnId) : [];
      },
      handle: (event, ctx) => handleCustomerMessage(deps, { tenantId: event.tenantId, ...event.payload }, ctx.recordDelivery),
    }),
  ];
}
