import { z } from 'zod';
import { defineJob } from '../../platform/queue/job-definition.ts';
import type { BotLive } from './bot-live.service.ts';

/** A live flow's timer node: the flow goes on after the wait (spec 02 §9 timer). */
export function createBotTimerJob(live: () => BotLive) {
  return defineJob({
    name: 'bots.timer',
    payload: z.object({ tenantId: z.uuid(), sessionId: z.uuid(), nodeId: z.string(), revision: z.number().int() }),
    handler: async (payload) => live().timerFired(payload),
    maxAttempts: 3,
  });
}
