import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { inviteUserRequest, tempPasswordResponse, updateUserNameRequest, userResponse, usersListResponse, userWithTempPasswordResponse } from '@embudo/contracts/http/users';
import { sessionOf } from '../../platform/http/route-access.ts';
import { forbidden, notFound } from '../../platform/errors/app-error.ts';
import type { Db } from '../../platform/db/database.ts';
import { findUser, listUsers, toSessionUser, updateUserName } from './users.service.ts';
import { assertTeamManager, inviteUser, resetUserPassword } from './team.service.ts';

const canManageTeam = (role: string) => role === 'owner' || role === 'admin';

const userIdParams = z.object({ id: z.uuid({ error: 'Identificador inválido.' }) });

export const usersRoutes: FastifyPluginAsyncZod<{ db: Db; onSessionsRevoked?: (userId: string) => void }> = async (app, { db, onSessionsRevoked }) => {
  app.get('/users', { schema: { response: { 200: usersListResponse } } }, async (request) => {
    const session = sessionOf(request);
    assertTeamManager(session);
    const rows = await listUsers(db, session.tenant.id);
    return Promise.all(rows.map((row) => toSessionUser(db, row)));
  });

  app.post('/users/invite', { schema: { body: inviteUserRequest, response: { 201: userWithTempPasswordResponse } } }, async (request, reply) =>
    reply.status(201).send(await inviteUser(db, sessionOf(request), request.body)));

  app.post('/users/:id/reset-password', { schema: { params: userIdParams, response: { 200: tempPasswordResponse } } }, async (request) => {
    const answer = await resetUserPassword(db, sessionOf(request), request.params.id);
    onSessionsRevoked?.(request.params.id);
    return answer;
  });

  app.put('/users/:id', {
    schema: { params: userIdParams, body: updateUserNameRequest, response: { 200: userResponse } },
  }, async (request) => {
    const session = sessionOf(request);
    const target = await findUser(db, session.tenant.id, request.params.id);
    if (!target) throw notFound('Usuario no encontrado.');
    if (target.id !== session.user.id && !canManageTeam(session.user.role)) throw forbidden();
    return toSessionUser(db, await updateUserName(db, session.tenant.id, target.id, request.body.name));
  });
};
