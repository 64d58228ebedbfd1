import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../platform/app-context.ts';
import { registerTenantRoutes } from '../../platform/http/route-access.ts';
import { activityRoutes, adminActivityRoutes } from './activity.routes.ts';

export interface WhatsappActivityPluginOptions extends AppContext {
  /** The messaging provider's failure codes in Spanish (a port: only the composition root knows the provider). */
  /** The chats module's buffered webhook delivery counts, written before the panel reads them. */
  flushDeliveryCounts?: () => Promise<void>;
}

/**
 * Whether WhatsApp deliveries are arriving (issue 17): per company, the last customer message and status, the
 * deliveries per hour, refused deliveries, failed sends and jobs that failed for good (with Reintentar); for the
 * operator, the same for any company and the companies that went silent.
 */
export const whatsappActivityPlugin: FastifyPluginAsync<WhatsappActivityPluginOptions> = async (app, { db, queue, clock, flushDeliveryCounts }) => {
  const options = { db, queue, clock, flushDeliveryCounts };
  await registerTenantRoutes(app, (scope) => scope.register(activityRoutes, options));
  await app.register(adminActivityRoutes, options);
};
