import type { FastifyPluginAsync } from 'fastify';
import type { TemplateCatalog } from '../../messaging-providers/provider.ts';
import type { AppContext } from '../../platform/app-context.ts';
import { registerTenantRoutes } from '../../platform/http/route-access.ts';
import { templatesRoutes } from './templates.routes.ts';

export interface TemplatesPluginOptions extends AppContext {
  /** The provider's template catalog (the provider port), where WhatsApp's review happens. */
  templates: TemplateCatalog;
}

/** WhatsApp message templates. */
export const templatesPlugin: FastifyPluginAsync<TemplatesPluginOptions> = async (app, { db, sandbox, storage, templates }) => {
  await registerTenantRoutes(app, (scope) => scope.register(templatesRoutes, { db, sandbox, storage, templates }));
};
