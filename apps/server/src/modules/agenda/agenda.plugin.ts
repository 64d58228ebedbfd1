import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../platform/app-context.ts';
import { registerTenantRoutes } from '../../platform/http/route-access.ts';
import { agendaRoutes } from './agenda.routes.ts';

/** Professionals, services, appointments and availability. */
export const agendaPlugin: FastifyPluginAsync<AppContext> = async (app, { db }) => {
  await registerTenantRoutes(app, (scope) => scope.register(agendaRoutes, { db }));
};
