import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { botListResponse, botResponse, createBotRequest, saveBotRequest, simulateRequest, simulateResponse } from '@embudo/contracts/http/bots';
import { noContent } from '@embudo/contracts/http/common';
import { requestScope } from '../../platform/http/request-scope.ts';
import type { BoardEvents } from '../funnels/index.ts';
import * as botsService from './bots.service.ts';
import { endSimulation, simulate } from './bot-simulation.service.ts';
import type { BotRunDeps } from './bot-run-services.ts';

export interface BotsRoutesOptions extends BotRunDeps {
  boardEvents: Pick<BoardEvents, 'boardUpdated'>;
}

const botParams = z.object({ id: z.uuid({ error: 'Bot inválido.' }) });
const simulationParams = z.object({ sessionId: z.uuid({ error: 'Sesión de prueba inválida.' }) });

/**
 * Bots Studio (spec 02 §7 Bots): every member lists the bots (the column bot dialog offers them);
 * only owners and admins open, change or try a bot's flow.
 */
export const botsRoutes: FastifyPluginAsyncZod<BotsRoutesOptions> = async (app, options) => {
  const scopeOf = async (request: FastifyRequest): Promise<botsService.BotsScope> => ({
    ...(await requestScope(request)),
    box: options.box,
    boardUpdated: options.boardEvents.boardUpdated,
  });

  app.get('/bots', { schema: { response: { 200: botListResponse } } }, async (request) => botsService.listBots(await scopeOf(request)));
  app.post('/bots', { schema: { body: createBotRequest, response: { 201: botResponse } } }, async (request, reply) =>
    reply.status(201).send(await botsService.createBot(await scopeOf(request), request.body)),
  );
  app.get('/bots/:id', { schema: { params: botParams, response: { 200: botResponse } } }, async (request) =>
    botsService.getBot(await scopeOf(request), request.params.id),
  );
  app.put('/bots/:id', { schema: { params: botParams, body: saveBotRequest, response: { 200: botResponse } } }, async (request) =>
    botsService.saveBot(await scopeOf(request), request.params.id, request.body),
  );
  app.delete('/bots/:id', { schema: { params: botParams, response: { 204: noContent } } }, async (request, reply) => {
    await botsService.deleteBot(await scopeOf(request), request.params.id);
    return reply.status(204).send();
  });

  app.post('/bots/:id/simulate', { schema: { params: botParams, body: simulateRequest, response: { 200: simulateResponse } } }, async (request) =>
    simulate(options, await scopeOf(request), request.params.id, request.body),
  );
  app.delete('/bots/simulation/:sessionId', { schema: { params: simulationParams, response: { 204: noContent } } }, async (request, reply) => {
    await endSimulation(await scopeOf(request), request.params.sessionId);
    return reply.status(204).send();
  });
};
