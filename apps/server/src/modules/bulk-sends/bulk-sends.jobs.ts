import { z } from 'zod';
import { defineJob } from '../../platform/queue/job-definition.ts';
import type { Logger } from '../../platform/logger/logger.ts';
import { dispatchChunk, giveUpChunk, type ChunkDeps } from './bulk-sends.service.ts';

export const CHUNK_MAX_ATTEMPTS = 8;

/** One chunk of a batch: its rows' messages and send jobs (docs/decisions/0007). */
export function createBulkSendJobs(deps: ChunkDeps & { log: Pick<Logger, 'error'> }) {
  const sendChunk = defineJob({
    name: 'bulk-sends.send-chunk',
    payload: z.object({ tenantId: z.uuid(), batchId: z.uuid(), chunk: z.number().int().min(0) }),
    maxAttempts: CHUNK_MAX_ATTEMPTS,
    backoff: { baseMs: 2_000, maxMs: 5 * 60_000 },
    handler: async (payload, ctx) => {
      try {
        await dispatchChunk(deps, payload);
      } catch (error) {
        if (ctx.attempt < CHUNK_MAX_ATTEMPTS) throw error;
        deps.log.error({ err: error, ...payload }, 'bulk-send chunk failed for good; its rows count as failed');
        await giveUpChunk(deps, payload);
      }
    },
  });
  return { sendChunk };
}
