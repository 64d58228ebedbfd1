import { useEffect, type ReactNode } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { BrandLogo } from '../../shared/ui/BrandLogo.tsx';
import { useSession } from '../auth/use-session.ts';
import { enterpriseContactHref } from './enterprise-contact.ts';
import { i18n as landingI18n } from './landing-i18n.ts';
import { LanguageToggle } from './LanguageToggle.tsx';

const featureKeys = ['inbox', 'pipeline', 'ai', 'team', 'templates', 'automation'] as const;
const planKeys = ['starter', 'pro', 'enterprise'] as const;

const featureIcons: Record<(typeof featureKeys)[number], string> = {
  inbox: 'M4 13h4l2 3h4l2-3h4M4 13l2.5-7h11L20 13v5a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1v-5Z',
  pipeline: 'M4 5h4v14H4zM10 5h4v9h-4zM16 5h4v5h-4z',
  ai: 'M12 3l1.8 4.7L18.5 9.5l-4.7 1.8L12 16l-1.8-4.7L5.5 9.5l4.7-1.8L12 3Zm6 11 .9 2.1L21 17l-2.1.9L18 20l-.9-2.1L15 17l2.1-.9L18 14Z',
  team: 'M16 20v-1a4 4 0 0 0-4-4H6a4 4 0 0 0-4 4v1m7-9a4 4 0 1 0 0-8 4 4 0 0 0 0 8Zm13 9v-1a4 4 0 0 0-3-3.9M16 3.1a4 4 0 0 1 0 7.8',
  templates: 'M4 5h16v11H8l-4 4V5Zm4 4h8m-8 3h5',
  automation: 'M13 2 3 14h9l-1 8 10-12h-9l1-8Z',
};

const planButtonClass = 'mt-8 inline-flex h-11 items-center justify-center rounded-xl text-sm font-semibold';

function Check() {
  return (
    <svg viewBox="0 0 20 20" className="mt-0.5 size-4 shrink-0 text-emerald-600" fill="none" stroke="currentColor" strokeWidth="2.2" aria-hidden="true">
      <path d="m5 10.5 3 3 7-7" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

function PipelinePreview() {
  const { t } = useTranslation();
  const columns = t('mock.columns', { returnObjects: true }) as string[];
  const cards = t('mock.cards', { returnObjects: true }) as Array<[string, string]>;
  const tones = ['bg-sky-500', 'bg-amber-500', 'bg-emerald-500'];
  const layout = [[cards[0], cards[3]], [cards[1]], [cards[2]]];
  return (
    <div aria-hidden="true" className="relative rounded-2xl bg-white/70 p-3 shadow-2xl shadow-emerald-900/10 ring-1 ring-slate-900/5 backdrop-blur">
      <div className="flex items-center gap-1.5 px-2 pb-3">
        <span className="size-2.5 rounded-full bg-rose-400" />
        <span className="size-2.5 rounded-full bg-amber-400" />
        <span className="size-2.5 rounded-full bg-emerald-400" />
      </div>
      <div className="grid grid-cols-3 gap-3">
        {columns.map((column, index) => (
          <div key={column} className="rounded-xl bg-slate-100/80 p-2.5">
            <div className="mb-2.5 flex items-center gap-2 px-1">
              <span className={`size-2 rounded-full ${tones[index]}`} />
              <span className="truncate text-xs font-semibold text-slate-700">{column}</span>
            </div>
            <div className="space-y-2">
              {(layout[index] ?? []).map((card) =>
                card ? (
                  <div key={card[0]} className="rounded-lg bg-white p-2.5 shadow-sm ring-1 ring-slate-200/70">
                    <div className="flex items-center gap-2">
                      <span className="grid size-6 place-items-center rounded-full bg-emerald-100 text-[10px] font-bold text-emerald-700">
                        {card[0]
                          .split(' ')
                          .map((word) => word[0])
                          .join('')}
                      </span>
                      <span className="truncate text-xs font-semibold text-slate-800">{card[0]}</span>
                    </div>
                    <p className="mt-1.5 line-clamp-2 text-[11px] leading-snug text-slate-500">{card[1]}</p>
                  </div>
                ) : null,
              )}
              {index === 1 && (
                <div className="flex items-center gap-1.5 rounded-lg border border-dashed border-emerald-300 bg-emerald-50 px-2.5 py-2 text-[11px] font-medium text-emerald-700">
                  <span className="size-1.5 animate-pulse rounded-full bg-emerald-500" />
                  {t('mock.ai')}
                </div>
              )}
            </div>
          </div>
        ))}
      </div>
    </div>
  );
}

function Section({ id, title, subtitle, children }: { id?: string; title: string; subtitle: string; children: ReactNode }) {
  return (
    <section id={id} className="mx-auto max-w-6xl scroll-mt-20 px-4 py-20 sm:px-6 lg:px-8">
      <div className="mx-auto max-w-2xl text-center">
        <h2 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">{title}</h2>
        <p className="mt-4 text-lg text-slate-600">{subtitle}</p>
      </div>
      <div className="mt-14">{children}</div>
    </section>
  );
}

/** The public landing page (spec 01 §1), in Spanish or English. */
export function LandingPage() {
  return (
    <I18nextProvider i18n={landingI18n}>
      <Landing />
    </I18nextProvider>
  );
}

function Landing() {
  const { t, i18n } = useTranslation();
  const { session } = useSession();

  useEffect(() => {
    document.documentElement.lang = i18n.language;
    return () => {
      document.documentElement.lang = 'es';
    };
  }, [i18n.language]);

  return (
    <div className="min-h-screen bg-white text-slate-900">
      <header className="sticky top-0 z-30 border-b border-slate-100 bg-white/80 backdrop-blur">
        <div className="mx-auto flex h-16 max-w-6xl items-center gap-6 px-4 sm:px-6 lg:px-8">
          <Link to="/">
            <BrandLogo />
          </Link>
          <nav className="hidden items-center gap-6 text-sm font-medium text-slate-600 md:flex">
            <a href="#funciones" className="hover:text-slate-900">
              {t('nav.features')}
            </a>
            <a href="#precios" className="hover:text-slate-900">
              {t('nav.pricing')}
            </a>
          </nav>
          <div className="ml-auto flex items-center gap-2 sm:gap-3">
            <LanguageToggle />
            {session ? (
              <Link
                to={`/t/${session.tenant.slug}`}
                className="inline-flex h-9 items-center rounded-lg bg-emerald-600 px-4 whitespace-nowrap text-sm font-semibold text-white shadow-sm hover:bg-emerald-700"
              >
                {t('nav.dashboard')}
              </Link>
            ) : (
              <>
                <Link to="/login" className="hidden h-9 items-center rounded-lg px-3 text-sm font-semibold text-slate-700 hover:bg-slate-100 sm:inline-flex">
                  {t('nav.login')}
                </Link>
                <Link
                  to="/register"
                  className="inline-flex h-9 items-center rounded-lg bg-emerald-600 px-4 whitespace-nowrap text-sm font-semibold text-white shadow-sm hover:bg-emerald-700"
                >
                  {t('nav.register')}
                </Link>
              </>
            )}
          </div>
        </div>
      </header>

      <main>
        <section className="relative overflow-hidden">
          <div
            className="pointer-events-none absolute inset-0 bg-[radial-gradient(ellipse_at_top_right,_var(--color-emerald-100),_transparent_55%),radial-gradient(ellipse_at_bottom_left,_var(--color-teal-50),_transparent_50%)]"
            aria-hidden="true"
          />
          <div className="relative mx-auto grid max-w-6xl items-center gap-14 px-4 pt-16 pb-20 sm:px-6 lg:grid-cols-2 lg:px-8 lg:pt-24">
            <div>
              <span className="inline-flex items-center gap-2 rounded-full bg-emerald-50 px-3 py-1 text-xs font-semibold text-emerald-700 ring-1 ring-emerald-200">
                <span className="size-1.5 rounded-full bg-emerald-500" />
                {t('hero.badge')}
              </span>
              <h1 className="mt-6 text-4xl font-extrabold tracking-tight text-slate-900 sm:text-5xl lg:text-6xl">{t('hero.title')}</h1>
              <p className="mt-6 max-w-xl text-lg leading-relaxed text-slate-600">{t('hero.subtitle')}</p>
              <div className="mt-8 flex flex-wrap gap-3">
                <Link
                  to="/register"
                  className="inline-flex h-12 items-center rounded-xl bg-emerald-600 px-6 text-base font-semibold text-white shadow-lg shadow-emerald-600/20 hover:bg-emerald-700"
                >
                  {t('hero.primary')}
                </Link>
                <Link
                  to="/login"
                  className="inline-flex h-12 items-center rounded-xl bg-white px-6 text-base font-semibold text-slate-700 ring-1 ring-slate-300 hover:bg-slate-50"
                >
                  {t('hero.secondary')}
                </Link>
              </div>
              <p className="mt-5 text-sm text-slate-500">{t('hero.note')}</p>
              <div className="mt-10 flex items-center gap-4">
                <div className="flex -space-x-2" aria-hidden="true">
                  {['bg-emerald-500', 'bg-sky-500', 'bg-amber-500', 'bg-rose-500'].map((tone, index) => (
                    <span key={tone} className={`grid size-9 place-items-center rounded-full text-xs font-bold text-white ring-2 ring-white ${tone}`}>
                      {['AM', 'CR', 'LG', 'PD'][index]}
                    </span>
                  ))}
                </div>
                <p className="text-sm text-slate-600">
                  <strong className="block text-xl font-bold text-slate-900">{t('social.figure')}</strong>
                  {t('social.text')}
                </p>
              </div>
            </div>
            <PipelinePreview />
          </div>
        </section>

        <div className="bg-slate-50">
          <Section id="funciones" title={t('features.title')} subtitle={t('features.subtitle')}>
            <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
              {featureKeys.map((key) => (
                <li key={key} className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 transition hover:-translate-y-0.5 hover:shadow-md">
                  <span className="grid size-11 place-items-center rounded-xl bg-emerald-600 text-white shadow-sm shadow-emerald-600/30">
                    <svg
                      viewBox="0 0 24 24"
                      className="size-5"
                      fill="none"
                      stroke="currentColor"
                      strokeWidth="1.8"
                      strokeLinecap="round"
                      strokeLinejoin="round"
                      aria-hidden="true"
                    >
                      <path d={featureIcons[key]} />
                    </svg>
                  </span>
                  <h3 className="mt-5 text-lg font-semibold text-slate-900">{t(`features.items.${key}.title`)}</h3>
                  <p className="mt-2 text-sm leading-relaxed text-slate-600">{t(`features.items.${key}.text`)}</p>
                </li>
              ))}
            </ul>
          </Section>
        </div>

        <Section id="precios" title={t('pricing.title')} subtitle={t('pricing.subtitle')}>
          <div className="grid gap-6 lg:grid-cols-3">
            {planKeys.map((key) => {
              const featured = key === 'pro';
              const custom = key === 'enterprise';
              const features = t(`pricing.plans.${key}.features`, { returnObjects: true }) as string[];
              return (
                <article
                  key={key}
                  className={`relative flex flex-col rounded-2xl p-8 ${featured ? 'bg-slate-900 text-white shadow-2xl shadow-emerald-900/20 ring-2 ring-emerald-500' : 'bg-white ring-1 ring-slate-200'}`}
                >
                  {featured && (
                    <span className="absolute -top-3 left-8 rounded-full bg-emerald-500 px-3 py-1 text-xs font-semibold text-white">
                      {t('pricing.popular')}
                    </span>
                  )}
                  <h3 className={`text-lg font-semibold ${featured ? 'text-white' : 'text-slate-900'}`}>{t(`pricing.plans.${key}.name`)}</h3>
                  <p className={`mt-1 text-sm ${featured ? 'text-slate-300' : 'text-slate-500'}`}>{t(`pricing.plans.${key}.description`)}</p>
                  <p className="mt-6 flex items-baseline gap-1">
                    <span className={`font-extrabold tracking-tight ${custom ? 'text-2xl' : 'text-5xl'}`}>{t(`pricing.plans.${key}.price`)}</span>
                    {!custom && <span className={featured ? 'text-slate-300' : 'text-slate-500'}>{t('pricing.perMonth')}</span>}
                  </p>
                  {!custom && <p className={`mt-2 text-xs font-medium ${featured ? 'text-emerald-300' : 'text-emerald-700'}`}>{t('pricing.trial')}</p>}
                  <ul className="mt-6 flex-1 space-y-3 text-sm">
                    {features.map((feature) => (
                      <li key={feature} className={`flex gap-2 ${featured ? '[&_svg]:text-emerald-400' : ''}`}>
                        <Check />
                        {feature}
                      </li>
                    ))}
                  </ul>
                  {custom ? (
                    <a href={enterpriseContactHref(t('pricing.contactSubject'))} className={`${planButtonClass} bg-slate-900 text-white hover:bg-slate-800`}>
                      {t('pricing.contact')}
                    </a>
                  ) : (
                    <Link
                      to="/register"
                      className={`${planButtonClass} ${featured ? 'bg-emerald-500 text-white hover:bg-emerald-400' : 'bg-slate-900 text-white hover:bg-slate-800'}`}
                    >
                      {t('pricing.start')}
                    </Link>
                  )}
                </article>
              );
            })}
          </div>
        </Section>

        <section className="px-4 pb-20 sm:px-6 lg:px-8">
          <div className="relative mx-auto max-w-5xl overflow-hidden rounded-3xl bg-gradient-to-br from-emerald-600 to-teal-800 px-8 py-14 text-center text-white shadow-xl">
            <div className="pointer-events-none absolute -top-20 -right-20 size-72 rounded-full bg-white/10 blur-2xl" aria-hidden="true" />
            <h2 className="relative text-3xl font-bold tracking-tight">{t('cta.title')}</h2>
            <p className="relative mx-auto mt-4 max-w-xl text-emerald-50">{t('cta.text')}</p>
            <Link
              to="/register"
              className="relative mt-8 inline-flex h-12 items-center rounded-xl bg-white px-6 font-semibold text-emerald-700 shadow-sm hover:bg-emerald-50"
            >
              {t('cta.button')}
            </Link>
          </div>
        </section>
      </main>

      <footer className="border-t border-slate-200">
        <div className="mx-auto flex max-w-6xl flex-col items-center justify-between gap-4 px-4 py-8 text-sm text-slate-500 sm:flex-row sm:px-6 lg:px-8">
          <BrandLogo />
          <p>
            © {new Date().getFullYear()} Embudo. {t('footer.rights')}
          </p>
        </div>
      </footer>
    </div>
  );
}
