import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../platform/db/database.ts';
import { sessionOf } from '../../platform/http/route-access.ts';
import { actorOf } from '../users/users.service.ts';
import { funnelBoard, funnelColumns, funnelSummaries } from './board.service.ts';

const funnelParams = z.object({ id: z.uuid({ error: 'Funnel inválido.' }) });

export const funnelsRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get('/funnels/summary', async (request) => {
    const session = sessionOf(request);
    return funnelSummaries(db, session.tenant.id, await actorOf(db, session.user));
  });

  app.get('/funnels/:id/board', { schema: { params: funnelParams } }, async (request) => {
    const session = sessionOf(request);
    return funnelBoard(db, session.tenant.id, await actorOf(db, session.user), request.params.id);
  });

  app.get('/funnels/:id/columns', { schema: { params: funnelParams } }, async (request) => {
    const session = sessionOf(request);
    return funnelColumns(db, session.tenant.id, await actorOf(db, session.user), request.params.id);
  });
};
