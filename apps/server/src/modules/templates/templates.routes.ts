import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import '@fastify/multipart';
import { z } from 'zod';
import {
  templateListQuery,
  templateListResponse,
  templateMediaResponse,
  templateRequest,
  templateResponse,
  templateSyncResponse,
} from '@embudo/contracts/http/templates';
import { noContent } from '@embudo/contracts/http/common';
import { badRequest } from '../../platform/errors/app-error.ts';
import { sessionOf } from '../../platform/http/route-access.ts';
import { requestScope } from '../../platform/http/request-scope.ts';
import { MAX_UPLOAD_BYTES, readMultipartUpload } from '../../platform/http/multipart-upload.ts';
import { requireOwnerOrAdmin } from '../../platform/policy/policy.ts';
import {
  createTemplate,
  deleteTemplate,
  getTemplate,
  listTemplates,
  syncTemplates,
  updateTemplate,
  uploadTemplateMedia,
  type TemplatesDeps,
} from './templates.service.ts';

const templateParams = z.object({ id: z.uuid({ error: 'Plantilla inválida.' }) });

/** Spec 02 §7 Templates. Any member lists (agents send approved ones); owners and admins change them. */
export const templatesRoutes: FastifyPluginAsyncZod<TemplatesDeps> = async (app, deps) => {
  const { db } = deps;

  app.get('/templates', { schema: { querystring: templateListQuery, response: { 200: templateListResponse } } }, async (request) =>
    listTemplates(db, sessionOf(request).tenant.id, { status: request.query.status }),
  );

  app.get('/templates/:id', { schema: { params: templateParams, response: { 200: templateResponse } } }, async (request) =>
    getTemplate(db, sessionOf(request).tenant.id, request.params.id),
  );

  app.post('/templates', { schema: { body: templateRequest, response: { 201: templateResponse } } }, async (request, reply) =>
    reply.status(201).send(await createTemplate(deps, await requestScope(request), request.body)),
  );

  app.put('/templates/:id', { schema: { params: templateParams, body: templateRequest, response: { 200: templateResponse } } }, async (request) =>
    updateTemplate(deps, await requestScope(request), request.params.id, request.body),
  );

  app.delete('/templates/:id', { schema: { params: templateParams, response: { 204: noContent } } }, async (request, reply) => {
    await deleteTemplate(deps, await requestScope(request), request.params.id);
    return reply.status(204).send();
  });

  app.post('/templates/sync', { schema: { response: { 200: templateSyncResponse } } }, async (request) => syncTemplates(deps, await requestScope(request)));

  app.post('/templates/media', { schema: { response: { 200: templateMediaResponse } } }, async (request) => {
    const who = await requestScope(request);
    // Refused before the file is read, not after buffering it.
    requireOwnerOrAdmin(who.actor);
    const { file: upload } = await readMultipartUpload(request, {
      fileField: 'media',
      maxFileBytes: MAX_UPLOAD_BYTES,
      tooLarge: 'El archivo es demasiado grande.',
      fallbackName: 'archivo',
      missingMessage: 'Envía el archivo como multipart/form-data en el campo media.',
    });
    if (!upload || upload.data.length === 0) throw badRequest('Falta el archivo (campo media).');
    return uploadTemplateMedia(deps, who, upload);
  });
};
