import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import '@fastify/multipart';
import { z } from 'zod';
import { batchFailureListResponse, batchListResponse, createBatchResponse, BULK_MAX_FILE_BYTES } from '@embudo/contracts/http/bulk-sends';
import { requestScope } from '../../platform/http/request-scope.ts';
import { readMultipartUpload } from '../../platform/http/multipart-upload.ts';
import { requireWriter } from '../../platform/policy/policy.ts';
import { funnelColumns } from '../funnels/index.ts';
import { batchFailures, createBatch, listBatches, type BulkSendDeps } from './bulk-sends.service.ts';

const funnelParams = z.object({ id: z.uuid({ error: 'Funnel inválido.' }) });
const batchParams = z.object({ id: z.uuid({ error: 'Envío inválido.' }) });
export const EXCEL_TOO_LARGE = `El archivo es demasiado grande (máximo ${BULK_MAX_FILE_BYTES / 1024 / 1024} MB).`;

/** Spec 02 §7 Bulk sends. */
export const bulkSendsRoutes: FastifyPluginAsyncZod<BulkSendDeps> = async (app, deps) => {
  const { db } = deps;

  app.get('/batches', { schema: { response: { 200: batchListResponse } } }, async (request) => {
    const { tenantId, actor } = await requestScope(request);
    return listBatches(deps, tenantId, actor);
  });

  // Issue 18: the failed rows with their phone and reason, for the dashboard's list and spreadsheet.
  app.get('/batches/:id/failures', { schema: { params: batchParams, response: { 200: batchFailureListResponse } } }, async (request) => {
    const { tenantId, actor } = await requestScope(request);
    return batchFailures(db, tenantId, actor, request.params.id);
  });

  /** Multipart: `file` (.xlsx), `templateId`, `targetColumnId`, `phoneColumn` and optionally `nameColumn` and `variableColumns` (JSON). */
  app.post('/funnels/:id/batches', { schema: { params: funnelParams, response: { 201: createBatchResponse } } }, async (request, reply) => {
    const author = await requestScope(request);
    // Refused before the file is read, not after buffering it.
    requireWriter(author.actor);
    await funnelColumns(db, author.tenantId, author.actor, request.params.id);
    const { fields, file } = await readMultipartUpload(request, {
      fileField: 'file',
      maxFileBytes: BULK_MAX_FILE_BYTES,
      tooLarge: EXCEL_TOO_LARGE,
      fallbackName: 'envio.xlsx',
      missingMessage: 'Envía el archivo como multipart/form-data en el campo file.',
    });
    return reply.status(201).send(await createBatch(deps, author, request.params.id, file, fields));
  });
};
