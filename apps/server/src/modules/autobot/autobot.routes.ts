import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { botSettingsRequest, botSettingsResponse } from '@embudo/contracts/http/autobot';
import type { Db } from '../../platform/db/database.ts';
import { sessionOf } from '../../platform/http/route-access.ts';
import { requireOwnerOrAdmin } from '../../platform/policy/policy.ts';
import { getBotSettings, saveBotSettings } from './autobot.service.ts';

/** Configurar Bot Auto (spec 01 §7 Bot settings): owners and admins only. */
export const autobotRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get('/bot-settings', { schema: { response: { 200: botSettingsResponse } } }, async (request) => {
    const session = sessionOf(request);
    requireOwnerOrAdmin(session.user);
    return getBotSettings(db, session.tenant.id);
  });

  app.put('/bot-settings', { schema: { body: botSettingsRequest, response: { 200: botSettingsResponse } } }, async (request) => {
    const session = sessionOf(request);
    requireOwnerOrAdmin(session.user);
    return saveBotSettings(db, { id: session.tenant.id, plan: session.tenant.subscriptionPlan }, request.body);
  });
};
