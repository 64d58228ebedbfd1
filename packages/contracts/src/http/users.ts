import { z } from 'zod';
import { sessionUser } from './auth.ts';

/** PUT /api/users/{id}: the Foundation serves the name-only form; the team issue adds the rest. */
export const updateUserNameRequest = z.object({
  name: z.string({ error: 'El nombre es requerido.' }).trim().min(1, { error: 'El nombre es requerido.' }).max(120),
});
export type UpdateUserNameRequest = z.infer<typeof updateUserNameRequest>;

export const userResponse = sessionUser;
