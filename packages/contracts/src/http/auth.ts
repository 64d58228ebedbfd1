import { z } from 'zod';

/** Spec 01 §5: lowercase letters, digits and hyphens. */
export const SLUG_PATTERN = /^[a-z0-9-]+$/;
export const SLUG_MIN_LENGTH = 3;

export const slugMessages = {
  required: 'Slug de empresa es requerido',
  pattern: 'Solo letras minúsculas, números y guiones',
  min: 'Mínimo 3 caracteres',
  taken: 'Este identificador ya está en uso',
} as const;

/** The four password rules of spec 01 §5/§9, each with the forced-change screen's message. */
export const passwordRules = [
  { id: 'length', label: 'Al menos 8 caracteres', message: 'La contraseña debe tener al menos 8 caracteres.', test: (p: string) => p.length >= 8 },
  { id: 'upper', label: 'Una letra mayúscula', message: 'Debe contener al menos una mayúscula.', test: (p: string) => /[A-Z]/.test(p) },
  { id: 'lower', label: 'Una letra minúscula', message: 'Debe contener al menos una minúscula.', test: (p: string) => /[a-z]/.test(p) },
  { id: 'digit', label: 'Un número', message: 'Debe contener al menos un número.', test: (p: string) => /[0-9]/.test(p) },
] as const;

export const PASSWORD_RULES_MESSAGE = 'La contraseña no cumple los requisitos';
export const PASSWORDS_DONT_MATCH = 'Las contraseñas no coinciden.';
/** A forced change must really replace the temporary password (checked by the server, shown by the page). */
export const SAME_AS_TEMPORARY_PASSWORD = 'La nueva contraseña debe ser distinta de la contraseña temporal.';

export function firstBrokenPasswordRule(password: string) {
  return passwordRules.find((rule) => !rule.test(password));
}

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const requiredString = (message: string) =>
  z.string({ error: message }).trim().min(1, { error: message });

const email = requiredString('Email es requerido').pipe(z.string().regex(EMAIL_PATTERN, { error: 'Email inválido' }));

export const slugSchema = z
  .string({ error: slugMessages.required })
  .trim()
  .toLowerCase()
  .min(1, { error: slugMessages.required })
  .regex(SLUG_PATTERN, { error: slugMessages.pattern });

export const strongPassword = z
  .string({ error: 'Contraseña es requerida' })
  .min(1, { error: 'Contraseña es requerida' })
  .refine((p) => firstBrokenPasswordRule(p) === undefined, { error: PASSWORD_RULES_MESSAGE });

export const loginRequest = z.object({
  email,
  password: z.string({ error: 'Contraseña es requerida' }).min(1, { error: 'Contraseña es requerida' }),
  tenantSlug: slugSchema,
});
export type LoginRequest = z.infer<typeof loginRequest>;

export const registerRequest = z.object({
  companyName: requiredString('Nombre de empresa es requerido'),
  companySlug: slugSchema.pipe(z.string().min(SLUG_MIN_LENGTH, { error: slugMessages.min })),
  userName: requiredString('Tu nombre es requerido'),
  userEmail: email,
  userPassword: strongPassword,
  /** IANA time zone of the registering browser; the agenda computes day boundaries in it. */
  timezone: z.string().trim().min(1).max(64).optional(),
});
export type RegisterRequest = z.infer<typeof registerRequest>;

export const changePasswordRequest = z.object({
  newPassword: z.string({ error: 'La nueva contraseña es requerida.' }).min(1, { error: 'La nueva contraseña es requerida.' }),
});
export type ChangePasswordRequest = z.infer<typeof changePasswordRequest>;

export const roles = ['owner', 'admin', 'agent', 'viewer'] as const;
export const roleSchema = z.enum(roles);
export type Role = z.infer<typeof roleSchema>;

export const plans = ['basic', 'professional', 'enterprise'] as const;
export const planSchema = z.enum(plans, { error: 'Plan inválido: usa basic, professional o enterprise.' });
export type Plan = z.infer<typeof planSchema>;

export const sessionUser = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  role: roleSchema,
  is_active: z.boolean(),
  last_login_at: z.string().nullable(),
  funnel_access: z.array(z.string()),
  force_password_change: z.boolean(),
});
export type SessionUser = z.infer<typeof sessionUser>;

export const sessionTenant = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  subscription_plan: planSchema,
  trial_ends_at: z.string().nullable(),
  timezone: z.string(),
});
export type SessionTenant = z.infer<typeof sessionTenant>;

export const sessionResponse = z.object({ token: z.string(), user: sessionUser, tenant: sessionTenant });
export type SessionResponse = z.infer<typeof sessionResponse>;

export const meResponse = z.object({ user: sessionUser, tenant: sessionTenant });
export type MeResponse = z.infer<typeof meResponse>;

/** A password change revokes every session of the user and hands this client a fresh one. */
export const changePasswordResponse = z.object({ message: z.string(), token: z.string(), user: sessionUser });
export type ChangePasswordResponse = z.infer<typeof changePasswordResponse>;

export const checkSlugResponse = z.object({ available: z.boolean() });
export type CheckSlugResponse = z.infer<typeof checkSlugResponse>;

export const messageResponse = z.object({ message: z.string() });
