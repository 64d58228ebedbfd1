import { TEXT_LIMITS } from '@embudo/contracts/text';

/**
 * The company slug suggested while the user types the company name:
 * lowercase, accents stripped, anything else becomes a hyphen, repeats collapsed, cut to the slug's maximum, ends trimmed.
 */
export function slugFromCompanyName(companyName: string): string {
  return companyName
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, TEXT_LIMITS.slug)
    .replace(/^-+|-+$/g, '');
}
