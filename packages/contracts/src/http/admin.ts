import { z } from 'zod';
import { planSchema } from './auth.ts';

export const adminLoginRequest = z.object({
  email: z.string({ error: 'Email es requerido' }).trim().min(1, { error: 'Email es requerido' }),
  password: z.string({ error: 'Contraseña es requerida' }).min(1, { error: 'Contraseña es requerida' }),
});

export const adminUser = z.object({ id: z.string(), email: z.string(), name: z.string() });
export const adminSessionResponse = z.object({ token: z.string(), user: adminUser });
export const adminMeResponse = z.object({ user: adminUser });

export const tenantPlanRequest = z.object({ subscription_plan: planSchema });
export const userStatusRequest = z.object({ is_active: z.boolean({ error: 'Indica is_active: true o false.' }) });

const price = z
  .union([z.number(), z.string(), z.null()])
  .transform((value, context) => {
    if (value === null || value === '') return 0;
    const number = typeof value === 'number' ? value : Number(value);
    if (!Number.isFinite(number) || number < 0) {
      context.addIssue({ code: 'custom', message: 'Los precios deben ser números mayores o iguales a 0.' });
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
  apiKey: z.string().trim().max(500).optional().default(''),
  partnerEmail: z.string().trim().max(200).optional().default(''),
  partnerPassword: z.string().max(500).optional().default(''),
});
