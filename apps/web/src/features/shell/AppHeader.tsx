import { useId } from 'react';
import { Link, NavLink } from 'react-router';
import { BrandLogo } from '../../shared/ui/BrandLogo.tsx';
import { ConnectionStatusButton } from './ConnectionStatusButton.tsx';
import { UserMenu } from './UserMenu.tsx';

const navLinkClass = ({ isActive }: { isActive: boolean }) =>
  `whitespace-nowrap rounded-lg px-3 py-2 text-sm font-medium transition ${
    isActive ? 'bg-emerald-50 text-emerald-700' : 'text-slate-600 hover:bg-slate-100 hover:text-slate-900'
  }`;

function Navigation({ slug, className = '' }: { slug: string; className?: string }) {
  const base = `/t/${slug}`;
  return (
    <nav aria-label="Principal" className={`flex items-center gap-1 ${className}`}>
      <NavLink to={base} end className={navLinkClass}>
        Sales Funnel
      </NavLink>
      <NavLink to={`${base}/agenda`} className={navLinkClass}>
        Agenda
      </NavLink>
      <NavLink to={`${base}/templates`} className={navLinkClass}>
        Plantillas
      </NavLink>
      <NavLink to={`${base}/batches`} className={navLinkClass}>
        Envíos
      </NavLink>
      <button
        type="button"
        disabled
        title="Próximamente"
        className="cursor-not-allowed rounded-lg px-3 py-2 text-sm font-medium whitespace-nowrap text-slate-300"
      >
        Facturación
      </button>
    </nav>
  );
}

/** The application shell's top bar (spec 01 §2). */
export function AppHeader({ slug }: { slug: string }) {
  const searchId = useId();
  return (
    <header className="relative z-30 shrink-0 border-b border-slate-200 bg-white">
      <div className="flex flex-wrap items-center gap-x-4 px-4 sm:px-6 lg:flex-nowrap">
        <Link to={`/t/${slug}`} className="flex h-16 shrink-0 items-center" aria-label="Embudo, ir al Sales Funnel">
          <BrandLogo />
        </Link>
        {/* One navigation: its own row under the bar on small screens, inline from lg up, where it
            scrolls sideways rather than push the bar onto a second line. */}
        <Navigation slug={slug} className="order-last -mx-1 w-full overflow-x-auto pb-2 lg:order-none lg:mx-0 lg:ml-2 lg:w-auto lg:min-w-0 lg:pb-0" />
        <div className="ml-auto flex h-16 shrink-0 items-center gap-3">
          <div className="relative hidden xl:block">
            <label htmlFor={searchId} className="sr-only">
              Buscar
            </label>
            <svg
              viewBox="0 0 20 20"
              className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-400"
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
              aria-hidden="true"
            >
              <circle cx="9" cy="9" r="6" />
              <path d="m14 14 3.5 3.5" strokeLinecap="round" />
            </svg>
            <input
              id={searchId}
              type="search"
              placeholder="Buscar..."
              className="h-9 w-48 rounded-lg border border-slate-200 bg-slate-50 pr-3 pl-9 text-sm outline-none transition placeholder:text-slate-400 focus:border-emerald-500 focus:bg-white focus:ring-4 focus:ring-emerald-100 2xl:w-72"
            />
          </div>
          <ConnectionStatusButton />
          <UserMenu />
        </div>
      </div>
    </header>
  );
}
