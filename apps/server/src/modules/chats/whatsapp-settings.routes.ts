import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  optOutKeywordsRequest,
  optOutKeywordsResponse,
  whatsappConnectionTestRequest,
  whatsappConnectionTestResponse,
  whatsappSettingsRequest,
  whatsappSettingsResponse,
} from '@embudo/contracts/http/whatsapp';
import type { Db } from '../../platform/db/database.ts';
import type { SecretBox } from '../../platform/crypto/secret-box.ts';
import { requestScope } from '../../platform/http/request-scope.ts';
import { requireOwnerOrAdmin } from '../../platform/policy/policy.ts';
import { ProviderError, type WhatsAppLines } from '../../messaging-providers/provider.ts';
import {
  assertGupshupAppFree,
  assertMetaNumberFree,
  optOutKeywordsOf,
  saveGupshupSettings,
  saveMetaSettings,
  saveOptOutKeywords,
  whatsappSettingsView,
} from '../tenants/index.ts';
import { DEFAULT_OPT_OUT_KEYWORDS } from './contacts.service.ts';

export interface WhatsAppSettingsRoutesOptions {
  db: Db;
  box: SecretBox;
  lines: WhatsAppLines;
  publicUrl: () => string;
  sandbox: boolean;
}

/**
 * Conexión WhatsApp (issue 18): the provider a company sends through, chosen by its owners and admins. Switching
 * keeps chats and history (they are the company's) and the other provider's settings (for a switch back).
 */
export const whatsappSettingsRoutes: FastifyPluginAsyncZod<WhatsAppSettingsRoutesOptions> = async (app, { db, box, lines, publicUrl, sandbox }) => {
  const manager = async (request: Parameters<typeof requestScope>[0]) => {
    const scope = await requestScope(request);
    requireOwnerOrAdmin(scope.actor);
    return scope;
  };
  const view = (tenant: { id: string; slug: string }) => whatsappSettingsView(db, tenant, { publicUrl: publicUrl(), sandbox });

  app.get('/whatsapp/settings', { schema: { response: { 200: whatsappSettingsResponse } } }, async (request) => view((await manager(request)).tenant));

  app.put('/whatsapp/settings', { schema: { body: whatsappSettingsRequest, response: { 200: whatsappSettingsResponse } } }, async (request) => {
    const { tenant } = await manager(request);
    const settings = request.body;
    if (settings.provider === 'meta') await saveMetaSettings(db, box, tenant, settings);
    else await saveGupshupSettings(db, tenant, settings);
    return view(tenant);
  });

  // Probar conexión: asks the provider now, with the dialog's values, and says what is wrong.
  app.post(
    '/whatsapp/settings/test',
    { schema: { body: whatsappConnectionTestRequest, response: { 200: whatsappConnectionTestResponse } } },
    async (request) => {
      const { tenant } = await manager(request);
      // Another company's app or number is not this company's to probe.
      if (request.body.provider === 'meta') await assertMetaNumberFree(db, tenant, request.body.phoneNumberId);
      else await assertGupshupAppFree(db, tenant, request.body.appName);
      const line = await lines.candidate(tenant, request.body);
      let checks;
      try {
        checks = await line.check();
      } catch (error) {
        if (!(error instanceof ProviderError)) throw error;
        checks = [{ ok: false, message: error.message }];
      }
      return { provider: line.provider, ok: checks.every((check) => check.ok), checks };
    },
  );

  // Baja de marketing (issue 43): the words that, written alone by a customer, stop marketing templates to them.
  app.get('/whatsapp/opt-out-keywords', { schema: { response: { 200: optOutKeywordsResponse } } }, async (request) => {
    const { tenantId } = await manager(request);
    return { keywords: (await optOutKeywordsOf(db, tenantId)) ?? DEFAULT_OPT_OUT_KEYWORDS };
  });

  app.put('/whatsapp/opt-out-keywords', { schema: { body: optOutKeywordsRequest, response: { 200: optOutKeywordsResponse } } }, async (request) => {
    const { tenantId } = await manager(request);
    return { keywords: await saveOptOutKeywords(db, tenantId, request.body.keywords) };
  });
};
