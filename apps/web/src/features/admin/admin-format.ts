import type { Pricing } from './admin.api.ts';

/** "Ana María López" → "Ana": the sidebar's logout link shows the operator's first name. */
export function firstName(name: string) {
  return name.trim().split(/\s+/)[0] || name;
}

/** Spec 02 §9: a tenant's cost is shown with 4 decimals. */
export function formatCost(value: number) {
  return `$${(Number.isFinite(value) ? value : 0).toFixed(4)}`;
}

export function formatCount(value: number) {
  return new Intl.NumberFormat('es-MX').format(value);
}

export type PricingForm = Record<keyof Pricing, string>;

/** Spec 02 §5: an empty price means 0. */
export function pricingFromForm(form: PricingForm): Pricing {
  const number = (value: string) => (value.trim() === '' ? 0 : Number(value));
  return {
    price_per_sent_message: number(form.price_per_sent_message),
    price_per_received_message: number(form.price_per_received_message),
    price_template_marketing: number(form.price_template_marketing),
    price_template_utility: number(form.price_template_utility),
    price_per_1000_ai_tokens: number(form.price_per_1000_ai_tokens),
  };
}

/** A send rate as people read it: whole, or with one decimal (2,5). */
export function formatRate(messagesPerSecond: number) {
  return new Intl.NumberFormat('es-ES', { maximumFractionDigits: 1 }).format(messagesPerSecond);
}
