import * as z from 'zod/mini';
import { plans, roles } from '../stored-session.ts';

// The session's parts, apart from the rest of auth's contracts. The app reads the stored session back with the
// zod-free checks of stored-session.ts, which a web test holds to these schemas.

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
  last_login_at: z.nullable(z.string()),
  funnel_access: z.array(z.string()),
  force_password_change: z.boolean(),
});
export type SessionUser = z.infer<typeof sessionUser>;

export const sessionTenant = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  subscription_plan: planSchema,
  trial_ends_at: z.nullable(z.string()),
  timezone: z.string(),
});
export type SessionTenant = z.infer<typeof sessionTenant>;
