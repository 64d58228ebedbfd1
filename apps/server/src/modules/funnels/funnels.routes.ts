import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { createColumnRequest, createFunnelRequest, moveCardRequest, renameCardRequest, renameFunnelRequest, toggleAiRequest, updateColumnRequest } from '@embudo/contracts/http/funnels';
import type { Db } from '../../platform/db/database.ts';
import { sessionOf } from '../../platform/http/route-access.ts';
import { actorOf } from '../users/users.service.ts';
import { funnelBoard, funnelColumns, funnelSummaries } from './board.service.ts';
import * as edit from './board-edit.service.ts';

const idParams = (message: string) => z.object({ id: z.uuid({ error: message }) });
const funnelParams = idParams('Funnel inválido.');
const columnParams = idParams('Columna inválida.');
const cardParams = idParams('Chat inválido.');

export interface FunnelsRoutesOptions {
  db: Db;
  events: edit.BoardEvents;
  archiveLanding?: edit.ArchiveLanding;
}

export const funnelsRoutes: FastifyPluginAsyncZod<FunnelsRoutesOptions> = async (app, { db, events, archiveLanding }) => {
  const scopeOf = async (request: FastifyRequest) => {
    const session = sessionOf(request);
    return { db, events, tenantId: session.tenant.id, plan: session.tenant.subscriptionPlan, actor: await actorOf(db, session.user) };
  };

  app.get('/funnels/summary', async (request) => {
    const scope = await scopeOf(request);
    return funnelSummaries(db, scope.tenantId, scope.actor);
  });
  app.post('/funnels', { schema: { body: createFunnelRequest } }, async (request, reply) =>
    reply.status(201).send(await edit.createFunnel(await scopeOf(request), request.body.name)));
  app.put('/funnels/:id', { schema: { params: funnelParams, body: renameFunnelRequest } }, async (request) =>
    edit.renameFunnel(await scopeOf(request), request.params.id, request.body.name));
  app.get('/funnels/:id/board', { schema: { params: funnelParams } }, async (request) => {
    const scope = await scopeOf(request);
    return funnelBoard(db, scope.tenantId, scope.actor, request.params.id);
  });
  app.get('/funnels/:id/columns', { schema: { params: funnelParams } }, async (request) => {
    const scope = await scopeOf(request);
    return funnelColumns(db, scope.tenantId, scope.actor, request.params.id);
  });

  app.get('/columns/all', async (request) => edit.allColumns(await scopeOf(request)));
  app.post('/columns', { schema: { body: createColumnRequest } }, async (request, reply) =>
    reply.status(201).send(await edit.createColumn(await scopeOf(request), request.body.funnelId, request.body.title)));
  app.put('/columns/:id', { schema: { params: columnParams, body: updateColumnRequest } }, async (request) =>
    edit.updateColumn(await scopeOf(request), request.params.id, request.body));
  app.delete('/columns/:id', { schema: { params: columnParams } }, async (request, reply) => {
    await edit.deleteColumn(await scopeOf(request), request.params.id);
    return reply.status(204).send();
  });
  app.post('/columns/:id/toggle-cards-ai', { schema: { params: columnParams, body: toggleAiRequest } }, async (request) =>
    edit.toggleColumnCardsAi(await scopeOf(request), request.params.id, request.body.enabled));

  app.post('/card/move', { schema: { body: moveCardRequest } }, async (request) =>
    edit.moveCard(await scopeOf(request), request.body.cardId, request.body.targetColumnId));
  app.put('/cards/:id', { schema: { params: cardParams, body: renameCardRequest } }, async (request) =>
    edit.renameCard(await scopeOf(request), request.params.id, request.body.title));
  app.put('/cards/:id/toggle-ai', { schema: { params: cardParams, body: toggleAiRequest } }, async (request) =>
    edit.toggleCardAi(await scopeOf(request), request.params.id, request.body.enabled));
  app.post('/cards/:id/archive', { schema: { params: cardParams } }, async (request) =>
    edit.archiveCard(await scopeOf(request), request.params.id, archiveLanding));
};
