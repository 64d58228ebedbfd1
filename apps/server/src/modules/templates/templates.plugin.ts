import type { FastifyPluginAsync } from 'fastify';
import type { WhatsAppLines } from '../../messaging-providers/provider.ts';
import type { AppContext } from '../../platform/app-context.ts';
import { registerTenantRoutes } from '../../platform/http/route-access.ts';
import { templatesRoutes } from './templates.routes.ts';

export interface TemplatesPluginOptions extends AppContext {
  /** Each company's WhatsApp line (the provider port): its template catalog is where WhatsApp's review happens. */
  lines: WhatsAppLines;
}

/** WhatsApp message templates. */
export const templatesPlugin: FastifyPluginAsync<TemplatesPluginOptions> = async (app, { db, storage, lines }) => {
  await registerTenantRoutes(app, (scope) => scope.register(templatesRoutes, { db, storage, lines }));
};
