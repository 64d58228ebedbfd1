import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { updateUserNameRequest, userResponse } from '@embudo/contracts/http/users';
import { sessionOf } from '../../platform/http/route-access.ts';
import { forbidden, notFound } from '../../platform/errors/app-error.ts';
import type { Db } from '../../platform/db/database.ts';
import { findUser, toSessionUser, updateUserName } from './users.service.ts';

const canManageTeam = (role: string) => role === 'owner' || role === 'admin';

export const usersRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.put('/users/:id', {
    schema: { params: z.object({ id: z.uuid({ error: 'Identificador inválido.' }) }), body: updateUserNameRequest, response: { 200: userResponse } },
  }, async (request) => {
    const session = sessionOf(request);
    const target = await findUser(db, session.tenant.id, request.params.id);
    if (!target) throw notFound('Usuario no encontrado.');
    if (target.id !== session.user.id && !canManageTeam(session.user.role)) throw forbidden();
    return toSessionUser(db, await updateUserName(db, session.tenant.id, target.id, request.body.name));
  });
};
