import { z } from 'zod';
import { roles, sessionUser } from './auth.ts';
import { requiredText, TEXT_LIMITS, trimmedText } from '../text.ts';

export const NAME_REQUIRED = 'El nombre es requerido.';
export const EMAIL_REQUIRED = 'El email es requerido.';
export const EMAIL_INVALID = 'Email inválido';
export const EMAIL_LOCKED = 'El email no se puede cambiar.';
export const OWNER_ROLE_LOCKED = 'El propietario no puede cambiar su propio rol.';
export const OWNER_CANNOT_DEACTIVATE = 'El propietario no puede desactivarse a sí mismo.';
/** Spec 01 §4, §6: the owner's row is theirs alone, and not even theirs to edit from the team dialog. */
export const OWNER_ROW_LOCKED = 'Solo el propietario puede modificar sus propios datos.';
export const OWNER_SELF_EDIT_REFUSED = 'El propietario no puede editar su propia fila del equipo: cambia tu nombre en Mi Perfil.';
export const ALL_FUNNELS_ROLES_NOTE = 'Los administradores y propietarios tienen acceso a todos los funnels.';

const userName = requiredText(TEXT_LIMITS.name, NAME_REQUIRED, 'El nombre es demasiado largo.');
const userEmail = requiredText(TEXT_LIMITS.email, EMAIL_REQUIRED, EMAIL_INVALID).pipe(z.email({ error: EMAIL_INVALID }));
const funnelIdList = z.array(z.uuid({ error: 'Funnel inválido.' }), { error: 'Funnels inválidos.' }).max(500, { error: 'Funnels inválidos.' });

/** The profile form's call: only the name. */
export const updateUserNameRequest = z.object({ name: userName });
export type UpdateUserNameRequest = z.infer<typeof updateUserNameRequest>;

/**
 * PUT /api/users/{id} (spec 01 §7): the team form sends every field, the status toggle only
 * `is_active`, the profile only `name`. The email is locked: it may be sent, but not changed.
 */
export const updateUserRequest = z
  .object({
    name: userName.optional(),
    email: trimmedText(TEXT_LIMITS.email, { error: EMAIL_INVALID, tooLong: EMAIL_INVALID }).optional(),
    role: z.enum(roles, { error: 'Rol inválido.' }).optional(),
    is_active: z.boolean({ error: 'Estado inválido.' }).optional(),
    funnelIds: funnelIdList.optional(),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), { error: NAME_REQUIRED });
export type UpdateUserRequest = z.infer<typeof updateUserRequest>;

export const userResponse = sessionUser;

export const assignableRoles = ['admin', 'agent', 'viewer'] as const;

export const inviteUserRequest = z.object({
  name: userName,
  email: userEmail,
  role: z.enum(assignableRoles, { error: 'Rol inválido.' }).default('agent'),
  is_active: z.boolean({ error: 'Estado inválido.' }).default(true),
  funnelIds: funnelIdList.default([]),
});
export type InviteUserRequest = z.infer<typeof inviteUserRequest>;

export const userWithTempPasswordResponse = z.object({ user: sessionUser, tempPassword: z.string() });
export type UserWithTempPassword = z.infer<typeof userWithTempPasswordResponse>;
export const tempPasswordResponse = z.object({ tempPassword: z.string() });
export type TempPasswordResponse = z.infer<typeof tempPasswordResponse>;
export const usersListResponse = z.array(sessionUser);
