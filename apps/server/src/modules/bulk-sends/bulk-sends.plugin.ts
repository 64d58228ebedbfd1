import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../platform/app-context.ts';
import { registerTenantRoutes } from '../../platform/http/route-access.ts';
import type { OutboundDeps } from '../chats/index.ts';
import { createBatchUpdates } from './batch-updates.ts';
import { createBulkSendJobs } from './bulk-sends.jobs.ts';
import { createBulkSendListeners } from './bulk-sends.listeners.ts';
import { bulkSendsRoutes } from './bulk-sends.routes.ts';
import { type BulkSendPace, DEFAULT_BULK_SEND_PACE } from './bulk-sends.service.ts';

export interface BulkSendsPluginOptions extends AppContext {
  /** The chats module's outbound queue, through which each row's template goes. */
  outbound: OutboundDeps;
  /** How fast bulk sends go out; tests and the benchmark change it. */
  pace?: BulkSendPace;
}

/** Bulk template sends from a spreadsheet: the routes, the paced chunk job and the batch progress listeners. */
export const bulkSendsPlugin: FastifyPluginAsync<BulkSendsPluginOptions> = async (app, options) => {
  const { db, queue, domainEvents, realtime, log, outbound } = options;
  const chunkDeps = { ...outbound, pace: options.pace ?? DEFAULT_BULK_SEND_PACE };
  const updates = createBatchUpdates({ emitToTenant: (tenantId, batchId) => realtime.emitToTenant(tenantId, 'batch_updated', { batchId }) });
  app.addHook('preClose', async () => updates.close());
  const { sendChunk } = createBulkSendJobs({ ...chunkDeps, log });
  queue.register(sendChunk);
  for (const listener of createBulkSendListeners({ db, updates })) domainEvents.register(listener);
  await registerTenantRoutes(app, (scope) =>
    scope.register(bulkSendsRoutes, {
      ...chunkDeps,
      updates,
      enqueueChunk: (tx, payload, delayMs) => queue.enqueue(tx, sendChunk, payload, { delayMs, singletonKey: `batch:${payload.batchId}:${payload.chunk}` }),
    }),
  );
};
