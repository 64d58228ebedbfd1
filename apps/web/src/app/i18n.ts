import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { storedLanguage } from '../features/landing/landing-language.ts';
import { landingTranslations } from '../features/landing/landing-translations.ts';

// Only the landing page is bilingual; the app itself speaks the spec's Spanish directly.
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
