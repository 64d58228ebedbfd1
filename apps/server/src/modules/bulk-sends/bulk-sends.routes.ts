import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import '@fastify/multipart';
import { z } from 'zod';
import { batchListResponse, createBatchResponse, BULK_MAX_FILE_BYTES } from '@embudo/contracts/http/bulk-sends';
import { badRequest } from '../../platform/errors/app-error.ts';
import { sessionOf } from '../../platform/http/route-access.ts';
import { uploadFileName } from '../../platform/http/upload-file-name.ts';
import { requireWriter } from '../../platform/policy/policy.ts';
import { authorOf } from '../chats/chats.routes.ts';
import { actorOf } from '../users/users.service.ts';
import { funnelColumns } from '../funnels/board.service.ts';
import { createBatch, listBatches, type BulkSendDeps, type ExcelUpload } from './bulk-sends.service.ts';

const funnelParams = z.object({ id: z.uuid({ error: 'Funnel inválido.' }) });
export const EXCEL_TOO_LARGE = `El archivo es demasiado grande (máximo ${BULK_MAX_FILE_BYTES / 1024 / 1024} MB).`;

/** Spec 02 §7 Bulk sends. */
export const bulkSendsRoutes: FastifyPluginAsyncZod<BulkSendDeps> = async (app, deps) => {
  const { db } = deps;

  app.get('/batches', { schema: { response: { 200: batchListResponse } } }, async (request) => {
    const session = sessionOf(request);
    return listBatches(db, session.tenant.id, await actorOf(db, session.user));
  });

  /** Multipart: `file` (.xlsx), `templateId`, `targetColumnId`, `phoneColumn` and optionally `variableColumns` (JSON). */
  app.post('/funnels/:id/batches', { schema: { params: funnelParams, response: { 201: createBatchResponse } } }, async (request, reply) => {
    const author = await authorOf(db, request);
    // Refused before the file is read, not after buffering it.
    requireWriter(author.actor);
    await funnelColumns(db, author.tenantId, author.actor, request.params.id);
    if (!request.isMultipart()) throw badRequest('Envía el archivo como multipart/form-data en el campo file.');
    const fields: Record<string, string> = {};
    let upload: ExcelUpload | undefined;
    for await (const part of request.parts({ limits: { fileSize: BULK_MAX_FILE_BYTES, files: 1 } })) {
      if (part.type === 'file') {
        const data = await part.toBuffer().catch((error: { code?: string }) => {
          throw error.code === 'FST_REQ_FILE_TOO_LARGE' ? badRequest(EXCEL_TOO_LARGE) : error;
        });
        if (part.file.truncated) throw badRequest(EXCEL_TOO_LARGE);
        if (part.fieldname === 'file') upload = { data, fileName: uploadFileName(part.filename, 'envio.xlsx') };
      } else {
        fields[part.fieldname] = String(part.value);
      }
    }
    return reply.status(201).send(await createBatch(deps, author, request.params.id, upload, fields));
  });
};
