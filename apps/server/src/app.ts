import fs from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import helmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from './platform/db/database.ts';
import type { Logger } from './platform/logger/logger.ts';
import { registerErrorHandler } from './platform/errors/error-handler.ts';
import { recordRouteTable, registerRouteAccess, registerTenantRoutes, type RouteTableEntry } from './platform/http/route-access.ts';
import { createRealtime, type Realtime } from './platform/realtime/realtime.ts';
import { defaultThrottleLimits, type ThrottleLimits } from './modules/auth/login-throttle.ts';
import { resolveSession } from './modules/auth/auth.service.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { usersRoutes } from './modules/users/users.routes.ts';

export interface AppOptions {
  db: Db;
  logger: Logger;
  redisUrl?: string;
  /** Folder of the built SPA; when present it is served with a fallback to index.html. */
  webDist?: string;
  throttle?: ThrottleLimits;
}

export type App = FastifyInstance & { realtime: Realtime; routeTable: RouteTableEntry[] };

export async function buildApp(options: AppOptions): Promise<App> {
  const app = Fastify({ loggerInstance: options.logger as FastifyBaseLogger, trustProxy: true }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.decorate('routeTable', recordRouteTable(app));
  const { db } = options;
  const sessionResolver = (token: string | undefined) => resolveSession(db, token);
  const realtime = createRealtime({ httpServer: app.server, resolveSession: sessionResolver, redisUrl: options.redisUrl, logger: options.logger });
  app.decorate('realtime', realtime);
  app.addHook('preClose', async () => realtime.close());

  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: { 'img-src': ["'self'", 'data:', 'blob:'], 'media-src': ["'self'", 'data:', 'blob:'], 'connect-src': ["'self'", 'ws:', 'wss:'] },
    },
  });
  registerErrorHandler(app, options.webDist && fs.existsSync(options.webDist) ? path.join(options.webDist, 'index.html') : undefined);
  registerRouteAccess(app, sessionResolver);

  await app.register(authRoutes, {
    db,
    throttle: options.throttle ?? defaultThrottleLimits,
    onPasswordChanged: (_tenantId, userId) => realtime.disconnectUser(userId),
  });
  await registerTenantRoutes(app, async (scope) => {
    await scope.register(usersRoutes, { db, onSessionsRevoked: (userId) => realtime.disconnectUser(userId) });
  });

  if (options.webDist && fs.existsSync(options.webDist)) {
    await app.register(fastifyStatic, { root: options.webDist, wildcard: false, index: false });
  }
  return app as unknown as App;
}
