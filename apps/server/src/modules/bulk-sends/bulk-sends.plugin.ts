import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../platform/app-context.ts';
import { registerTenantRoutes } from '../../platform/http/route-access.ts';
import type { OutboundDeps } from '../chats/index.ts';
import { createBatchUpdates } from './batch-updates.ts';
import { createBulkSendJobs } from './bulk-sends.jobs.ts';
import { createBulkSendListeners } from './bulk-sends.listeners.ts';
import { ExcelRowsReader } from './excel-rows-reader.ts';
import { bulkSendsRoutes } from './bulk-sends.routes.ts';
import { SendPacer } from '../send-pacing/index.ts';
import type { ChunkDeps, ChunkPayload } from './bulk-sends.service.ts';
import { SharedReads } from '../../platform/db/shared-reads.ts';
import type { BatchDto } from '@embudo/contracts/http/bulk-sends';

/** The dashboard's recount takes at most a quarter of the database's time, however many members watch it. */
const BATCH_LIST_GAP_FACTOR = 3;

export interface BulkSendsPluginOptions extends AppContext {
  /** The chats module's outbound queue, through which each row's template goes. */
  outbound: OutboundDeps;
}

/** Bulk template sends from a spreadsheet: the routes, the chunk job paced by the company's number and the batch progress listeners. */
export const bulkSendsPlugin: FastifyPluginAsync<BulkSendsPluginOptions> = async (app, options) => {
  const { db, queue, domainEvents, realtime, log, outbound, clock } = options;
  const updates = createBatchUpdates({ emitToTenant: (tenantId, batchId) => realtime.emitToTenant(tenantId, 'batch_updated', { batchId }) });
  app.addHook('preClose', async () => updates.close());
  // The job and the function that enqueues it refer to each other: the job hands the rest of its batch to a successor.
  const enqueueChunk: ChunkDeps['enqueueChunk'] = (tx, payload: ChunkPayload, delayMs) =>
    queue.enqueue(tx, sendChunk, payload, { delayMs, singletonKey: `batch:${payload.batchId}:${payload.chunk}` });
  const chunkDeps: ChunkDeps = { ...outbound, pacer: new SendPacer({ db, clock }), enqueueChunk };
  const { sendChunk } = createBulkSendJobs({ ...chunkDeps, log });
  queue.register(sendChunk);
  for (const listener of createBulkSendListeners({ db, updates })) domainEvents.register(listener);
  const batchLists = new SharedReads<BatchDto[]>({ gapFactor: BATCH_LIST_GAP_FACTOR });
  const excelRows = new ExcelRowsReader();
  app.addHook('onClose', async () => excelRows.stop());
  await registerTenantRoutes(app, (scope) => scope.register(bulkSendsRoutes, { ...chunkDeps, updates, clock, batchLists, readRows: excelRows.read }));
};
