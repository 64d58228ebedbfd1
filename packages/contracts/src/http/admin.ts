import { z } from 'zod';
import { passwordText, planSchema, roleSchema } from './auth.ts';
import { requiredText, safeText, TEXT_LIMITS, trimmedText } from '../text.ts';

export const adminLoginRequest = z.object({
  email: requiredText(TEXT_LIMITS.email, 'Email es requerido', 'Email inválido'),
  password: passwordText('Contraseña es requerida'),
});

export const adminUser = z.object({ id: z.string(), email: z.string(), name: z.string() });
export const adminSessionResponse = z.object({ token: z.string(), user: adminUser });
export const adminMeResponse = z.object({ user: adminUser });
export type AdminUser = z.infer<typeof adminUser>;
export type AdminSession = z.infer<typeof adminSessionResponse>;

export const tenantPlanRequest = z.object({ subscription_plan: planSchema });

/** Issue 16: the most a WhatsApp number sends per second (Meta's highest throughput tier). */
export const SEND_RATE_MAX = 1_000;
export const SEND_RATE_INVALID = `Los mensajes por segundo deben ser un número mayor que 0 y como máximo ${SEND_RATE_MAX}.`;
/** PUT /api/admin/tenants/{id}/send-rate: the operator's rate for the company's WhatsApp number. */
export const sendRateRequest = z.object({
  messagesPerSecond: z.number({ error: SEND_RATE_INVALID }).positive({ error: SEND_RATE_INVALID }).max(SEND_RATE_MAX, { error: SEND_RATE_INVALID }),
});
export type SendRateRequest = z.infer<typeof sendRateRequest>;
/** A company's send rate: the configured one (the operator's, or the provider's default) and the one it runs at now. */
export const sendRateResponse = z.object({
  messagesPerSecond: z.number(),
  /** True while the operator has set nothing: the rate is the provider's documented default. */
  isDefault: z.boolean(),
  /**
   * Lower than messagesPerSecond after the provider's rate-limit answers, until it climbs back, and while the number's
   * quality is medium (half) or low (a quarter).
   */
  currentMessagesPerSecond: z.number(),
});
export type SendRate = z.infer<typeof sendRateResponse>;
export const userStatusRequest = z.object({ is_active: z.boolean({ error: 'Indica is_active: true o false.' }) });

/** Far above any real per-message price. */
const MAX_PRICE = 1_000_000;

const price = z.union([z.number(), safeText(40), z.null()]).transform((value, context) => {
  if (value === null || value === '') return 0;
  const number = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(number) || number < 0) {
    context.addIssue({ code: 'custom', message: 'Los precios deben ser números mayores o iguales a 0.' });
    return z.NEVER;
  }
  if (number > MAX_PRICE) {
    context.addIssue({ code: 'custom', message: `Los precios no pueden superar ${MAX_PRICE}.` });
    return z.NEVER;
  }
  if (Math.round(number * 10_000) / 10_000 !== number) {
    context.addIssue({ code: 'custom', message: 'Los precios admiten hasta 4 decimales.' });
    return z.NEVER;
  }
  return number;
});

export const pricingRequest = z.object({
  price_per_sent_message: price.optional().default(0),
  price_per_received_message: price.optional().default(0),
  price_template_marketing: price.optional().default(0),
  price_template_utility: price.optional().default(0),
  /** Issue 15: price per 1,000 AI model tokens (in + out). */
  price_per_1000_ai_tokens: price.optional().default(0),
});

export const gupshupCredentialsRequest = z.object({
  apiKey: trimmedText(500).optional().default(''),
  partnerEmail: trimmedText(TEXT_LIMITS.email).optional().default(''),
  partnerPassword: safeText(500).optional().default(''),
});
export type GupshupCredentialsInput = z.input<typeof gupshupCredentialsRequest>;

// Answers (spec 02 §3 Admin stats, Tenant (admin), Pricing, Provider settings).

export const adminStatsResponse = z.object({
  totalTenants: z.number().int(),
  totalUsers: z.number().int(),
  activeConnections: z.number().int(),
  messagesSentThisMonth: z.number().int(),
  totalTemplates: z.number().int(),
  utilityTemplates: z.number().int(),
  marketingTemplates: z.number().int(),
});
export type AdminStats = z.infer<typeof adminStatsResponse>;

export const tenantsSummaryResponse = z.array(
  z.object({
    id: z.string(),
    name: z.string(),
    slug: z.string(),
    subscription_plan: planSchema,
    userCount: z.number().int(),
  }),
);

export const adminTenantUser = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  role: roleSchema,
  is_active: z.boolean(),
  last_login_at: z.string().nullable(),
});
export type AdminTenantUser = z.infer<typeof adminTenantUser>;
export const adminTenant = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  subscription_plan: planSchema,
  trial_ends_at: z.string().nullable(),
  usage: z.object({ totalCost: z.number() }),
  users: z.array(adminTenantUser),
  /** Issue 16: the company's send rate (the operator's tenant page shows and edits it). */
  send_rate: sendRateResponse.optional(),
});
export type AdminTenant = z.infer<typeof adminTenant>;
export const adminTenantsResponse = z.array(adminTenant);

export const tenantPlanResponse = z.object({ id: z.string(), subscription_plan: planSchema });
export const userStatusResponse = z.object({ id: z.string(), is_active: z.boolean() });

export const pricingResponse = z.object({
  price_per_sent_message: z.number(),
  price_per_received_message: z.number(),
  price_template_marketing: z.number(),
  price_template_utility: z.number(),
  price_per_1000_ai_tokens: z.number(),
});
export type Pricing = z.infer<typeof pricingResponse>;

/** Secrets are write-only: the API key comes back masked, the password never; the flags say whether each is set. */
export const gupshupSettingsResponse = z.object({
  apiKey: z.string(),
  apiKeySet: z.boolean(),
  partnerEmail: z.string(),
  partnerPassword: z.literal(''),
  partnerPasswordSet: z.boolean(),
});
export type GupshupSettings = z.infer<typeof gupshupSettingsResponse>;
