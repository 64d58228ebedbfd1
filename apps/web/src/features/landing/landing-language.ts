import type { LandingLanguage } from './landing-translations.ts';

/** Remembers the visitor's choice between visits. */
export const LANGUAGE_STORAGE_KEY = 'embudo_language';

export function storedLanguage(): LandingLanguage {
  try {
    return localStorage.getItem(LANGUAGE_STORAGE_KEY) === 'en' ? 'en' : 'es';
  } catch {
    return 'es';
  }
}

export function rememberLanguage(language: LandingLanguage) {
  localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
}
