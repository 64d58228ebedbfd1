import { z } from 'zod';
import { passwordText, planSchema } from './auth.ts';
import { requiredText, safeText, TEXT_LIMITS, trimmedText } from '../text.ts';

export const adminLoginRequest = z.object({
  email: requiredText(TEXT_LIMITS.email, 'Email es requerido', 'Email inválido'),
  password: passwordText('Contraseña es requerida'),
});

export const adminUser = z.object({ id: z.string(), email: z.string(), name: z.string() });
export const adminSessionResponse = z.object({ token: z.string(), user: adminUser });
export const adminMeResponse = z.object({ user: adminUser });

export const tenantPlanRequest = z.object({ subscription_plan: planSchema });
export const userStatusRequest = z.object({ is_active: z.boolean({ error: 'Indica is_active: true o false.' }) });

/** Far above any real per-message price. */
const MAX_PRICE = 1_000_000;

const price = z
  .union([z.number(), safeText(40), z.null()])
  .transform((value, context) => {
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
});

export const gupshupCredentialsRequest = z.object({
  apiKey: trimmedText(500).optional().default(''),
  partnerEmail: trimmedText(TEXT_LIMITS.email).optional().default(''),
  partnerPassword: safeText(500).optional().default(''),
});
