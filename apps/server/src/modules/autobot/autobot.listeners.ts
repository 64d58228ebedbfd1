import { defineListener } from '../../platform/events/index.ts';
import { handleCustomerMessage, type AutobotDeps } from './autobot.service.ts';

/** The menu auto-bot answers customers in its waiting room, after the webhook that stored their message has answered. */
export function createAutobotListeners(deps: AutobotDeps) {
  return [
    defineListener({
      name: 'autobot.answer-customer-message',
      event: 'customer-message.stored',
      maxAttempts: 3,
      handle: (event, ctx) => handleCustomerMessage(deps, { tenantId: event.tenantId, ...event.payload }, ctx.recordDelivery),
    }),
  ];
}
