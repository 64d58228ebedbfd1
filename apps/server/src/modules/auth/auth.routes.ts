import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  changePasswordRequest,
  changePasswordResponse,
  checkSlugParams,
  checkSlugResponse,
  firstBrokenPasswordRule,
  loginRequest,
  meResponse,
  registerRequest,
  sessionResponse,
} from '@embudo/contracts/http/auth';
import { noContent } from '@embudo/contracts/http/common';
import type { EventPublisher } from '../../platform/events/index.ts';
import { sessionOf } from '../../platform/http/route-access.ts';
import type { ThrottleLimits } from './login-throttle.ts';
import * as auth from './auth.service.ts';
import { isSlugAvailable } from '../tenants/index.ts';
import type { Db } from '../../platform/db/database.ts';

export interface AuthRoutesOptions {
  db: Db;
  throttle: ThrottleLimits;
  /** The time sign-ins and sessions are judged by (tests move it). */
  clock: () => Date;
  /** session.ended is published in the transaction that ends the sessions. */
  domainEvents: EventPublisher;
  onPasswordChanged?: (tenantId: string, userId: string) => void;
  /** The session was revoked: its live connections must end now. */
  onLogout?: (sessionId: string) => void;
}

export const authRoutes: FastifyPluginAsyncZod<AuthRoutesOptions> = async (app, { db, domainEvents, throttle, clock, onPasswordChanged, onLogout }) => {
  app.post(
    '/api/auth/register',
    {
      config: { access: 'public' },
      schema: { body: registerRequest, response: { 201: sessionResponse } },
    },
    async (request, reply) => reply.status(201).send(await auth.register(db, request.body, clock())),
  );

  app.post(
    '/api/auth/login',
    {
      config: { access: 'public' },
      schema: { body: loginRequest, response: { 200: sessionResponse } },
    },
    async (request) => auth.login(db, request.body, request.ip, throttle, clock()),
  );

  app.post('/api/auth/logout', { config: { allowDuringPasswordChange: true }, schema: { response: { 204: noContent } } }, async (request, reply) => {
    const session = sessionOf(request);
    await auth.logout(db, { sessionId: session.sessionId, tenantId: session.tenant.id, userId: session.user.id }, domainEvents);
    onLogout?.(session.sessionId);
    return reply.status(204).send();
  });

  app.get(
    '/api/auth/me',
    {
      config: { allowDuringPasswordChange: true },
      schema: { response: { 200: meResponse } },
    },
    async (request) => auth.me(sessionOf(request)),
  );

  app.put(
    '/api/auth/change-password',
    {
      config: { allowDuringPasswordChange: true },
      schema: { body: changePasswordRequest, response: { 200: changePasswordResponse } },
    },
    async (request) => {
      const session = sessionOf(request);
      const { newPassword } = request.body;
      const answer = await auth.changePassword(db, session, newPassword, firstBrokenPasswordRule(newPassword)?.message, clock(), domainEvents);
      onPasswordChanged?.(session.tenant.id, session.user.id);
      return answer;
    },
  );

  app.get(
    '/api/tenants/check-slug/:slug',
    {
      config: { access: 'public' },
      schema: { params: checkSlugParams, response: { 200: checkSlugResponse } },
    },
    async (request) => ({ available: await isSlugAvailable(db, request.params.slug) }),
  );
};
