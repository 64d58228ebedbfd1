import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { storedLanguage } from './landing-language.ts';
import { landingTranslations } from './landing-translations.ts';

// Only the landing page is bilingual; the app itself speaks the spec's Spanish directly. Set up with the landing's own
// code, which loads on demand: i18next stays out of every other page's first paint.
void i18n.use(initReactI18next).init({
  resources: landingTranslations,
  lng: storedLanguage(),
  fallbackLng: 'es',
  supportedLngs: ['es', 'en'],
  interpolation: { escapeValue: false },
  initAsync: false,
  showSupportNotice: false,
});

export { i18n };
