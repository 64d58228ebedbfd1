import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  inviteUserRequest,
  tempPasswordResponse,
  updateUserRequest,
  userResponse,
  usersListResponse,
  userWithTempPasswordResponse,
} from '@embudo/contracts/http/users';
import type { SessionUser } from '@embudo/contracts/http/auth';
import type { EventPublisher } from '../../platform/events/index.ts';
import { sessionOf } from '../../platform/http/route-access.ts';
import type { Db } from '../../platform/db/database.ts';
import { listUsers, toSessionUser } from './users.service.ts';
import { assertTeamManager, inviteUser, resetUserPassword, updateTeamMember, type RevokeSessions } from './team.service.ts';

const userIdParams = z.object({ id: z.uuid({ error: 'Identificador inválido.' }) });

export interface UsersRoutesOptions {
  db: Db;
  /** Ends a member's sessions in the transaction that resets or deactivates them (the auth module's). */
  revokeSessions: RevokeSessions;
  /** user.access-changed and session.ended are published in the transaction of the change. */
  domainEvents: EventPublisher;
  /** The user's sessions were revoked (reset, deactivation): end their live connections. */
  onSessionsRevoked?: (userId: string) => void;
  /** The user's role, funnels or status changed: their live connections and open screens must follow. */
  onAccessChanged?: (user: SessionUser) => Promise<void>;
}

export const usersRoutes: FastifyPluginAsyncZod<UsersRoutesOptions> = async (app, { db, revokeSessions, domainEvents, onSessionsRevoked, onAccessChanged }) => {
  const team = { db, revokeSessions, events: domainEvents };
  app.get('/users', { schema: { response: { 200: usersListResponse } } }, async (request) => {
    const session = sessionOf(request);
    assertTeamManager(session);
    const rows = await listUsers(db, session.tenant.id);
    return Promise.all(rows.map((row) => toSessionUser(db, row)));
  });

  app.post('/users/invite', { schema: { body: inviteUserRequest, response: { 201: userWithTempPasswordResponse } } }, async (request, reply) =>
    reply.status(201).send(await inviteUser(db, sessionOf(request), request.body)),
  );

  app.post('/users/:id/reset-password', { schema: { params: userIdParams, response: { 200: tempPasswordResponse } } }, async (request) => {
    const answer = await resetUserPassword(team, sessionOf(request), request.params.id);
    onSessionsRevoked?.(request.params.id);
    return answer;
  });

  app.put('/users/:id', { schema: { params: userIdParams, body: updateUserRequest, response: { 200: userResponse } } }, async (request) => {
    const { user, deactivated, accessChanged } = await updateTeamMember(team, sessionOf(request), request.params.id, request.body);
    const answer = await toSessionUser(db, user);
    if (deactivated) onSessionsRevoked?.(user.id);
    else if (accessChanged) await onAccessChanged?.(answer);
    return answer;
  });
};
