import * as z from 'zod/mini';

// The stored session's parts, apart from the rest of auth's contracts: the app checks the stored session as it starts.
// With the sign-in and registration schemas, and with classic zod's whole API (which does not tree-shake), that check
// held the board's first paint; zod/mini ships only the few schemas below. Classic schemas embed these as any other.

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
