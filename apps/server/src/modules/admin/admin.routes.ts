import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  adminLoginRequest,
  adminMeResponse,
  adminSessionResponse,
  adminStatsResponse,
  adminTenantsResponse,
  gupshupCredentialsRequest,
  gupshupSettingsResponse,
  pricingRequest,
  pricingResponse,
  sendRateRequest,
  sendRateResponse,
  tenantPlanRequest,
  tenantPlanResponse,
  tenantsSummaryResponse,
  userStatusRequest,
  userStatusResponse,
} from '@embudo/contracts/http/admin';
import { noContent } from '@embudo/contracts/http/common';
import { tempPasswordResponse } from '@embudo/contracts/http/users';
import { adminTemplateListResponse, adminTemplateResponse, adminTemplateStatusRequest } from '@embudo/contracts/http/templates';
import type { Db } from '../../platform/db/database.ts';
import type { SecretBox } from '../../platform/crypto/secret-box.ts';
import { adminSessionOf } from '../../platform/http/route-access.ts';
import type { ThrottleLimits } from '../auth/index.ts';
import { listAllTemplatesForOperator, setTemplateStatusByOperator, type SandboxTemplateReviewer } from '../templates/index.ts';
import type { Logger } from '../../platform/logger/logger.ts';
import type { SendPacer } from '../send-pacing/index.ts';
import * as admin from './admin.service.ts';

export interface AdminRoutesOptions {
  db: Db;
  box: SecretBox;
  throttle: ThrottleLimits;
  /** The time sign-ins are judged by (tests move it). */
  clock: () => Date;
  activeConnections: () => number;
  onUserSessionsEnded: (userId: string) => void;
  /** Sandbox mode: the operator's template approval is the fake provider's review too. */
  sandboxReviewer?: SandboxTemplateReviewer;
  log: Pick<Logger, 'warn'>;
  /** The companies' send rates (issue 16). */
  pacer: SendPacer;
}

const idParams = (message: string) => z.object({ id: z.uuid({ error: message }) });
const asAdmin = { access: 'admin' as const };

export const adminRoutes: FastifyPluginAsyncZod<AdminRoutesOptions> = async (
  app,
  { db, box, throttle, clock, activeConnections, onUserSessionsEnded, sandboxReviewer, log, pacer },
) => {
  app.post(
    '/api/auth/admin/login',
    { config: { access: 'public' }, schema: { body: adminLoginRequest, response: { 200: adminSessionResponse } } },
    async (request) => admin.adminLogin(db, request.body, request.ip, throttle, clock()),
  );

  app.get('/api/admin/me', { config: asAdmin, schema: { response: { 200: adminMeResponse } } }, async (request) =>
    admin.adminMe(adminSessionOf(request).admin as admin.AdminRow),
  );

  app.post('/api/admin/logout', { config: asAdmin, schema: { response: { 204: noContent } } }, async (request, reply) => {
    await admin.adminLogout(db, adminSessionOf(request).sessionId);
    return reply.status(204).send();
  });

  app.get('/api/admin/stats', { config: asAdmin, schema: { response: { 200: adminStatsResponse } } }, async () => admin.platformStats(db, activeConnections()));
  app.get('/api/admin/tenants-summary', { config: asAdmin, schema: { response: { 200: tenantsSummaryResponse } } }, async () => admin.tenantsSummary(db));
  app.get('/api/admin/tenants', { config: asAdmin, schema: { response: { 200: adminTenantsResponse } } }, async () => admin.tenantsWithUsers(db, pacer));

  app.put(
    '/api/admin/tenants/:id/plan',
    { config: asAdmin, schema: { params: idParams('Empresa inválida.'), body: tenantPlanRequest, response: { 200: tenantPlanResponse } } },
    async (request) => admin.setTenantPlan(db, request.params.id, request.body.subscription_plan),
  );

  // Issue 16: how many messages per second the company's WhatsApp number sends.
  app.put(
    '/api/admin/tenants/:id/send-rate',
    { config: asAdmin, schema: { params: idParams('Empresa inválida.'), body: sendRateRequest, response: { 200: sendRateResponse } } },
    async (request) => admin.setTenantSendRate(db, pacer, request.params.id, request.body.messagesPerSecond),
  );

  app.put(
    '/api/admin/users/:id/status',
    { config: asAdmin, schema: { params: idParams('Usuario inválido.'), body: userStatusRequest, response: { 200: userStatusResponse } } },
    async (request) => {
      const answer = await admin.setUserStatus(db, request.params.id, request.body.is_active);
      if (!request.body.is_active) onUserSessionsEnded(request.params.id);
      return answer;
    },
  );

  app.post(
    '/api/admin/users/:id/reset-password',
    { config: asAdmin, schema: { params: idParams('Usuario inválido.'), response: { 200: tempPasswordResponse } } },
    async (request) => {
      const answer = await admin.adminResetPassword(db, request.params.id);
      onUserSessionsEnded(request.params.id);
      return answer;
    },
  );

  app.get('/api/admin/templates/all', { config: asAdmin, schema: { response: { 200: adminTemplateListResponse } } }, async () =>
    listAllTemplatesForOperator(db),
  );
  app.put(
    '/api/admin/templates/:id/status',
    {
      config: asAdmin,
      schema: { params: idParams('Plantilla inválida.'), body: adminTemplateStatusRequest, response: { 200: adminTemplateResponse } },
    },
    async (request) => setTemplateStatusByOperator({ db, sandboxReviewer, log }, request.params.id, request.body),
  );

  app.get('/api/admin/settings/pricing', { config: asAdmin, schema: { response: { 200: pricingResponse } } }, async () => admin.getPricing(db));
  app.put('/api/admin/settings/pricing', { config: asAdmin, schema: { body: pricingRequest, response: { 200: pricingResponse } } }, async (request) =>
    admin.savePricing(db, request.body),
  );

  app.get('/api/admin/settings/gupshup', { config: asAdmin, schema: { response: { 200: gupshupSettingsResponse } } }, async () =>
    admin.getGupshupSettings(db, box),
  );
  app.put(
    '/api/admin/settings/gupshup',
    { config: asAdmin, schema: { body: gupshupCredentialsRequest, response: { 200: gupshupSettingsResponse } } },
    async (request) => admin.saveGupshupSettings(db, box, request.body),
  );
};
