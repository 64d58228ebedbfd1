import { z } from 'zod';
import { sessionUser } from './auth.ts';

/** PUT /api/users/{id}: the Foundation serves the name-only form; the team issue adds the rest. */
export const updateUserNameRequest = z.object({
  name: z.string({ error: 'El nombre es requerido.' }).trim().min(1, { error: 'El nombre es requerido.' }).max(120),
});
export type UpdateUserNameRequest = z.infer<typeof updateUserNameRequest>;

export const userResponse = sessionUser;

export const assignableRoles = ['admin', 'agent', 'viewer'] as const;

export const inviteUserRequest = z.object({
  name: z.string({ error: 'El nombre es requerido.' }).trim().min(1, { error: 'El nombre es requerido.' }).max(120),
  email: z
    .string({ error: 'El email es requerido.' })
    .trim()
    .min(1, { error: 'El email es requerido.' })
    .pipe(z.email({ error: 'Email inválido' })),
  role: z.enum(assignableRoles, { error: 'Rol inválido.' }).default('agent'),
  is_active: z.boolean({ error: 'Estado inválido.' }).default(true),
  funnelIds: z.array(z.uuid({ error: 'Funnel inválido.' }), { error: 'Funnels inválidos.' }).default([]),
});
export type InviteUserRequest = z.infer<typeof inviteUserRequest>;

export const userWithTempPasswordResponse = z.object({ user: sessionUser, tempPassword: z.string() });
export const tempPasswordResponse = z.object({ tempPassword: z.string() });
export const usersListResponse = z.array(sessionUser);
