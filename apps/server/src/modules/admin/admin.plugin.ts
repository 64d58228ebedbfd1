import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../platform/app-context.ts';
import { defaultThrottleLimits, type ThrottleLimits } from '../auth/index.ts';
import type { SandboxTemplateReviewer } from '../templates/index.ts';
import { SendPacer } from '../send-pacing/index.ts';
import { adminRoutes } from './admin.routes.ts';

export interface AdminPluginOptions extends AppContext {
  throttle?: ThrottleLimits;
  /** Sandbox mode: the operator's template approval is the fake provider's review too. */
  sandboxReviewer?: SandboxTemplateReviewer;
}

/** The platform operator: companies, users, prices, provider credentials and template review. */
export const adminPlugin: FastifyPluginAsync<AdminPluginOptions> = async (app, { db, box, clock, log, realtime, throttle, sandboxReviewer }) => {
  await app.register(adminRoutes, {
    db,
    box,
    clock,
    log,
    sandboxReviewer,
    pacer: new SendPacer({ db, clock }),
    throttle: throttle ?? defaultThrottleLimits,
    activeConnections: () => realtime.connectionCount(),
    onUserSessionsEnded: (userId) => realtime.disconnectUser(userId),
  });
};
