import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { retryJobResponse, silentCompaniesQuery, silentCompaniesResponse, whatsappActivityResponse } from '@embudo/contracts/http/whatsapp-activity';
import type { Db } from '../../platform/db/database.ts';
import { notFound } from '../../platform/errors/app-error.ts';
import { sessionOf } from '../../platform/http/route-access.ts';
import { requireOwnerOrAdmin } from '../../platform/policy/policy.ts';
import type { JobQueue } from '../../platform/queue/job-queue.ts';
import { findTenantById } from '../tenants/index.ts';
import { retryFailedJob, silentCompanies, whatsappActivity } from './activity.service.ts';

export interface ActivityRoutesOptions {
  db: Db;
  queue: JobQueue;
  clock: () => Date;
  /** Writes the webhook delivery counts this process holds, so the panel shows them at once. */
  flushDeliveryCounts?: () => Promise<void>;
}

const jobParams = z.object({ id: z.uuid({ error: 'Trabajo inválido.' }) });

/** The company's own panel (Conexión WhatsApp → Actividad): owners and admins. */
export const activityRoutes: FastifyPluginAsyncZod<ActivityRoutesOptions> = async (app, { db, queue, clock, flushDeliveryCounts }) => {
  app.get('/whatsapp/activity', { schema: { response: { 200: whatsappActivityResponse } } }, async (request) => {
    const session = sessionOf(request);
    requireOwnerOrAdmin(session.user);
    await flushDeliveryCounts?.();
    return whatsappActivity(db, session.tenant.id, clock());
  });

  app.post('/whatsapp/activity/jobs/:id/retry', { schema: { params: jobParams, response: { 200: retryJobResponse } } }, async (request) => {
    const session = sessionOf(request);
    requireOwnerOrAdmin(session.user);
    return retryFailedJob(queue, session.tenant.id, request.params.id);
  });
};

const asAdmin = { access: 'admin' as const };
const tenantParams = z.object({ id: z.uuid({ error: 'Empresa inválida.' }) });
const tenantJobParams = z.object({ id: z.uuid({ error: 'Empresa inválida.' }), jobId: z.uuid({ error: 'Trabajo inválido.' }) });
const COMPANY_NOT_FOUND = 'Empresa no encontrada.';

/** The platform operator's view of any company's activity, and of the companies that went silent. */
export const adminActivityRoutes: FastifyPluginAsyncZod<ActivityRoutesOptions> = async (app, { db, queue, clock, flushDeliveryCounts }) => {
  app.get(
    '/api/admin/tenants/:id/whatsapp-activity',
    { config: asAdmin, schema: { params: tenantParams, response: { 200: whatsappActivityResponse } } },
    async (request) => {
      if (!(await findTenantById(db, request.params.id))) throw notFound(COMPANY_NOT_FOUND);
      await flushDeliveryCounts?.();
      return whatsappActivity(db, request.params.id, clock());
    },
  );

  app.post(
    '/api/admin/tenants/:id/whatsapp-activity/jobs/:jobId/retry',
    { config: asAdmin, schema: { params: tenantJobParams, response: { 200: retryJobResponse } } },
    async (request) => retryFailedJob(queue, request.params.id, request.params.jobId),
  );

  app.get(
    '/api/admin/whatsapp-activity/silent-companies',
    { config: asAdmin, schema: { querystring: silentCompaniesQuery, response: { 200: silentCompaniesResponse } } },
    async (request) => {
      await flushDeliveryCounts?.();
      return silentCompanies(db, request.query.hours, clock());
    },
  );
};
