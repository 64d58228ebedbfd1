import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import '@fastify/multipart';
import {
  assignedTemplatesRequest,
  createColumnRequest,
  createFunnelRequest,
  createQuickReplyRequest,
  moveCardRequest,
  renameCardRequest,
  renameFunnelRequest,
  toggleAiRequest,
  TOOL_FILE_MAX_BYTES,
  updateColumnRequest,
  updateQuickReplyRequest,
  assignedTemplatesResponse,
  boardQuery,
  boardResponse,
  columnCardsQuery,
  columnCardsResponse,
  cardSummaryResponse,
  columnResponse,
  funnelResponse,
  funnelSummaryResponse,
  shownBoardQuery,
  shownBoardResponse,
  namedColumnListResponse,
  quickReplyListResponse,
  quickReplyResponse,
  toggleColumnCardsAiResponse,
  toolFileStatesResponse,
  toolUploadResponse,
} from '@embudo/contracts/http/funnels';
import { noContent } from '@embudo/contracts/http/common';
import type { Db } from '../../platform/db/database.ts';
import type { EventPublisher } from '../../platform/events/index.ts';
import { badRequest } from '../../platform/errors/app-error.ts';
import { requestScope } from '../../platform/http/request-scope.ts';
import { readMultipartUpload } from '../../platform/http/multipart-upload.ts';
import type { MediaStorage } from '../../platform/storage/media-storage.ts';
import { columnCards, funnelBoard, funnelColumns, funnelSummaries, shownBoard } from './board.service.ts';
import * as edit from './board-edit.service.ts';
import * as settings from './column-settings.service.ts';

const idParams = (message: string) => z.object({ id: z.uuid({ error: message }) });
const funnelParams = idParams('Funnel inválido.');
const columnParams = idParams('Columna inválida.');
const cardParams = idParams('Chat inválido.');
const quickReplyParams = idParams('Respuesta rápida inválida.');

export interface FunnelsRoutesOptions {
  db: Db;
  events: edit.BoardEvents;
  domainEvents: EventPublisher;
  bots: edit.ColumnBots;
  storage: MediaStorage;
  archiveLanding?: edit.ArchiveLanding;
  toolFiles: settings.ToolFileKnowledge;
}

export const funnelsRoutes: FastifyPluginAsyncZod<FunnelsRoutesOptions> = async (
  app,
  { db, events, domainEvents, bots, storage, archiveLanding, toolFiles },
) => {
  const scopeOf = async (request: FastifyRequest) => {
    const scope = await requestScope(request);
    return { ...scope, events, domainEvents, bots, plan: scope.tenant.subscriptionPlan };
  };

  app.get('/funnels/summary', { schema: { response: { 200: funnelSummaryResponse } } }, async (request) => {
    const scope = await scopeOf(request);
    return funnelSummaries(db, scope.tenantId, scope.actor);
  });
  app.get('/funnels/shown-board', { schema: { querystring: shownBoardQuery, response: { 200: shownBoardResponse } } }, async (request) => {
    const scope = await scopeOf(request);
    return shownBoard(db, scope.tenantId, scope.actor, request.query.selected);
  });
  app.post('/funnels', { schema: { body: createFunnelRequest, response: { 201: funnelResponse } } }, async (request, reply) =>
    reply.status(201).send(await edit.createFunnel(await scopeOf(request), request.body.name)),
  );
  app.put('/funnels/:id', { schema: { params: funnelParams, body: renameFunnelRequest, response: { 200: funnelResponse } } }, async (request) =>
    edit.renameFunnel(await scopeOf(request), request.params.id, request.body.name),
  );
  app.get('/funnels/:id/board', { schema: { params: funnelParams, querystring: boardQuery, response: { 200: boardResponse } } }, async (request) => {
    const scope = await scopeOf(request);
    return funnelBoard(db, scope.tenantId, scope.actor, request.params.id, request.query.perColumn);
  });
  app.get(
    '/columns/:id/cards',
    { schema: { params: columnParams, querystring: columnCardsQuery, response: { 200: columnCardsResponse } } },
    async (request) => {
      const scope = await scopeOf(request);
      return columnCards(db, scope.tenantId, scope.actor, request.params.id, request.query);
    },
  );
  app.get('/funnels/:id/columns', { schema: { params: funnelParams, response: { 200: namedColumnListResponse } } }, async (request) => {
    const scope = await scopeOf(request);
    return funnelColumns(db, scope.tenantId, scope.actor, request.params.id);
  });

  app.get('/columns/all', { schema: { response: { 200: namedColumnListResponse } } }, async (request) => edit.allColumns(await scopeOf(request)));
  app.post('/columns', { schema: { body: createColumnRequest, response: { 201: columnResponse } } }, async (request, reply) =>
    reply.status(201).send(await edit.createColumn(await scopeOf(request), request.body.funnelId, request.body.title)),
  );
  app.put('/columns/:id', { schema: { params: columnParams, body: updateColumnRequest, response: { 200: columnResponse } } }, async (request) =>
    edit.updateColumn(await scopeOf(request), request.params.id, request.body),
  );
  app.delete('/columns/:id', { schema: { params: columnParams, response: { 204: noContent } } }, async (request, reply) => {
    await edit.deleteColumn(await scopeOf(request), request.params.id);
    return reply.status(204).send();
  });
  app.post(
    '/columns/:id/toggle-cards-ai',
    { schema: { params: columnParams, body: toggleAiRequest, response: { 200: toggleColumnCardsAiResponse } } },
    async (request) => edit.toggleColumnCardsAi(await scopeOf(request), request.params.id, request.body.enabled),
  );

  // Column settings (spec 01 §2 Other dialogs): quick replies, assigned templates, assistant tool files.
  app.get('/columns/:id/quick-replies', { schema: { params: columnParams, response: { 200: quickReplyListResponse } } }, async (request) =>
    settings.listQuickReplies(await scopeOf(request), request.params.id),
  );
  app.post('/quick-replies', { schema: { body: createQuickReplyRequest, response: { 201: quickReplyResponse } } }, async (request, reply) =>
    reply.status(201).send(await settings.createQuickReply(await scopeOf(request), request.body)),
  );
  app.put(
    '/quick-replies/:id',
    { schema: { params: quickReplyParams, body: updateQuickReplyRequest, response: { 200: quickReplyResponse } } },
    async (request) => settings.updateQuickReply(await scopeOf(request), request.params.id, request.body),
  );
  app.delete('/quick-replies/:id', { schema: { params: quickReplyParams, response: { 204: noContent } } }, async (request, reply) => {
    await settings.deleteQuickReply(await scopeOf(request), request.params.id);
    return reply.status(204).send();
  });
  app.get('/columns/:id/assigned-templates', { schema: { params: columnParams, response: { 200: assignedTemplatesResponse } } }, async (request) =>
    settings.assignedTemplates(await scopeOf(request), request.params.id),
  );
  app.put(
    '/columns/:id/assigned-templates',
    { schema: { params: columnParams, body: assignedTemplatesRequest, response: { 200: assignedTemplatesResponse } } },
    async (request) => settings.assignTemplates(await scopeOf(request), request.params.id, request.body.templateIds),
  );
  app.post('/columns/:id/tools/upload', { schema: { params: columnParams, response: { 201: toolUploadResponse } } }, async (request, reply) => {
    const scope = await scopeOf(request);
    await edit.writableColumn(scope, request.params.id);
    const { file: upload } = await readMultipartUpload(request, {
      fileField: 'tool_file',
      maxFileBytes: TOOL_FILE_MAX_BYTES,
      tooLarge: settings.TOOL_FILE_TOO_LARGE,
      fallbackName: settings.TOOL_FILE_FALLBACK_NAME,
      missingMessage: 'Envía el archivo como multipart/form-data en el campo tool_file.',
    });
    if (!upload) throw badRequest(settings.TOOL_FILE_MISSING);
    return reply.status(201).send(await settings.uploadToolFile({ ...scope, storage, toolFiles }, request.params.id, upload));
  });

  app.get('/columns/:id/tools/files', { schema: { params: columnParams, response: { 200: toolFileStatesResponse } } }, async (request) =>
    settings.toolFileStates({ ...(await scopeOf(request)), toolFiles }, request.params.id),
  );

  app.post('/card/move', { schema: { body: moveCardRequest, response: { 200: cardSummaryResponse } } }, async (request) =>
    edit.moveCard(await scopeOf(request), request.body.cardId, request.body.targetColumnId),
  );
  app.put('/cards/:id', { schema: { params: cardParams, body: renameCardRequest, response: { 200: cardSummaryResponse } } }, async (request) =>
    edit.renameCard(await scopeOf(request), request.params.id, request.body.title),
  );
  app.put('/cards/:id/toggle-ai', { schema: { params: cardParams, body: toggleAiRequest, response: { 200: cardSummaryResponse } } }, async (request) =>
    edit.toggleCardAi(await scopeOf(request), request.params.id, request.body.enabled),
  );
  app.post('/cards/:id/archive', { schema: { params: cardParams, response: { 200: cardSummaryResponse } } }, async (request) =>
    edit.archiveCard(await scopeOf(request), request.params.id, archiveLanding),
  );
};
