import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { aiStatusResponse } from '@embudo/contracts/http/ai';
import { copilotRequest, suggestReplyResponse, summarizeResponse } from '@embudo/contracts/http/chats';
import { requestScope } from '../../../platform/http/request-scope.ts';
import { type CopilotDeps, suggestReply, summarizeConversation } from './copilot.service.ts';

/** Issue 15 item 5: the agent's copilot in the chat. */
export const copilotRoutes: FastifyPluginAsyncZod<CopilotDeps> = async (app, deps) => {
  /** Which model answers, so the column assistant dialog can say "IA de prueba" for the sandbox. */
  app.get('/ai/status', { schema: { response: { 200: aiStatusResponse } } }, async () => ({
    provider: deps.model?.provider ?? null,
    label: deps.model?.label ?? null,
  }));
  app.post('/ai/suggest-reply', { schema: { body: copilotRequest, response: { 200: suggestReplyResponse } } }, async (request) =>
    suggestReply(deps, await requestScope(request), request.body.cardId),
  );
  app.post('/ai/summarize', { schema: { body: copilotRequest, response: { 200: summarizeResponse } } }, async (request) =>
    summarizeConversation(deps, await requestScope(request), request.body.cardId),
  );
};
