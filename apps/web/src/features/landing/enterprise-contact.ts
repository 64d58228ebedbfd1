/**
 * Enterprise is priced per company, so its Hablemos writes to the people who sell it instead of opening the
 * self-service sign-up. The address is set when the web app is built (VITE_CONTACT_EMAIL).
 */
export const CONTACT_EMAIL = import.meta.env.VITE_CONTACT_EMAIL || 'ventas@embudo.app';

export function enterpriseContactHref(subject: string) {
  return `mailto:${CONTACT_EMAIL}?subject=${encodeURIComponent(subject)}`;
}
