import { useTranslation } from 'react-i18next';
import { rememberLanguage } from './landing-language.ts';

/** Switches the landing page between Spanish and English. */
export function LanguageToggle() {
  const { t, i18n } = useTranslation();
  const next = i18n.language === 'en' ? 'es' : 'en';
  return (
    <button
      type="button"
      data-testid="language-toggle"
      title={t('language.title')}
      lang={next}
      onClick={() => {
        rememberLanguage(next);
        void i18n.changeLanguage(next);
      }}
      className="inline-flex h-9 items-center gap-1.5 rounded-lg px-3 text-sm font-medium text-slate-600 ring-1 ring-slate-200 transition hover:bg-slate-50 hover:text-slate-900"
    >
      <svg viewBox="0 0 20 20" className="size-4" fill="none" stroke="currentColor" strokeWidth="1.6" aria-hidden="true">
        <circle cx="10" cy="10" r="7.5" />
        <path d="M2.5 10h15M10 2.5c2 2.2 3 4.7 3 7.5s-1 5.3-3 7.5c-2-2.2-3-4.7-3-7.5s1-5.3 3-7.5Z" />
      </svg>
      {t('language.toggle')}
    </button>
  );
}
