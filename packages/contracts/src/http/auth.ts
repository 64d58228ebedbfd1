import { z } from 'zod';
import { requiredText, safeText, TEXT_LIMITS, trimmedText } from '../text.ts';
import { plans, roles } from '../stored-session.ts';

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

const email = requiredText(TEXT_LIMITS.email, 'Email es requerido', 'Email inválido').pipe(z.string().regex(EMAIL_PATTERN, { error: 'Email inválido' }));

export const slugSchema = requiredText(TEXT_LIMITS.slug, slugMessages.required).toLowerCase().regex(SLUG_PATTERN, { error: slugMessages.pattern });

/** Any password a person may type: present, safe, not absurdly long (argon2 hashes it whole). */
export const passwordText = (required: string) => safeText(TEXT_LIMITS.password, { error: required }).min(1, { error: required });

export const strongPassword = passwordText('Contraseña es requerida').refine((p) => firstBrokenPasswordRule(p) === undefined, {
  error: PASSWORD_RULES_MESSAGE,
});

export const loginRequest = z.object({
  email,
  password: passwordText('Contraseña es requerida'),
  tenantSlug: slugSchema,
});
export type LoginRequest = z.infer<typeof loginRequest>;

export const registerRequest = z.object({
  companyName: requiredText(TEXT_LIMITS.companyName, 'Nombre de empresa es requerido'),
  companySlug: slugSchema.min(SLUG_MIN_LENGTH, { error: slugMessages.min }),
  userName: requiredText(TEXT_LIMITS.name, 'Tu nombre es requerido'),
  userEmail: email,
  userPassword: strongPassword,
  /** IANA time zone of the registering browser; the agenda computes day boundaries in it. */
  timezone: trimmedText(64).min(1).optional(),
});
export type RegisterRequest = z.infer<typeof registerRequest>;

export const changePasswordRequest = z.object({
  newPassword: passwordText('La nueva contraseña es requerida.'),
});
export type ChangePasswordRequest = z.infer<typeof changePasswordRequest>;

// The value lists live with the zod-free checks the app reads the stored session back with, which a web test holds
// to these schemas.
export { plans, roles };
export const roleSchema = z.enum(roles);
export type Role = z.infer<typeof roleSchema>;

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

/** GET /api/tenants/check-slug/{slug}: any text is answered (taken or not); only unsafe or huge ones are refused. */
export const checkSlugParams = z.object({ slug: safeText(TEXT_LIMITS.slug) });

export const checkSlugResponse = z.object({ available: z.boolean() });
export type CheckSlugResponse = z.infer<typeof checkSlugResponse>;

export const messageResponse = z.object({ message: z.string() });
