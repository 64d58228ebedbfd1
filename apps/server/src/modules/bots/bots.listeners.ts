import { defineListener, relevantWhere } from '../../platform/events/index.ts';
import { columnsWithBot } from '../funnels/index.ts';
import type { BotLive } from './bot-live.service.ts';

/**
 * A flow's step may call the tenant's webhooks, Gemini or SMTP: it runs from the queue, never inside the
 * request that stored the message or moved the card. A short lease (kept alive while the step runs) lets
 * another process take over soon after this one dies mid-step.
 */
const FLOW_STEP_LEASE_MS = 15_000;

export function createBotListeners(live: BotLive) {
  return [
    defineListener({
      name: 'bots.answer-customer-message',
      event: 'customer-message.stored',
      maxAttempts: 3,
      leaseMs: FLOW_STEP_LEASE_MS,
      // A flow answers or starts only in a column that runs a bot.
      selectRelevant: relevantWhere((event) => event.payload.columnId, columnsWithBot),
      handle: (event, ctx) => live.afterCustomerMessage({ tenantId: event.tenantId, ...event.payload }, ctx.recordDelivery),
    }),
    defineListener({
      name: 'bots.start-on-column-entry',
      event: 'card.entered-column',
      maxAttempts: 3,
      leaseMs: FLOW_STEP_LEASE_MS,
      selectRelevant: relevantWhere((event) => event.payload.columnId, columnsWithBot),
      handle: (event, ctx) => live.cardEnteredColumn({ tenantId: event.tenantId, ...event.payload }, ctx.recordDelivery),
    }),
  ];
}
