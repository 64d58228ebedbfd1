import type { ReactNode } from 'react';
import { Navigate, NavLink, Outlet } from 'react-router';
import { BrandLogo } from '../../shared/ui/BrandLogo.tsx';
import { Spinner } from '../../shared/ui/Spinner.tsx';
import { firstName } from './admin-format.ts';
import { useAdminSession } from './use-admin-session.ts';

const icons: Record<string, ReactNode> = {
  dashboard: <path d="M3 3h6v6H3zM11 3h6v4h-6zM11 9h6v8h-6zM3 11h6v6H3z" strokeLinejoin="round" />,
  tenants: <path d="M3 17V6l5-3 5 3v11M13 9h4v8M6 8h1M6 11h1M6 14h1M9 8h1M9 11h1M9 14h1M2 17h16" strokeLinecap="round" strokeLinejoin="round" />,
  templates: <path d="M5 3h7l3 3v11H5zM8 9h5M8 12h5M8 15h3" strokeLinecap="round" strokeLinejoin="round" />,
  settings: (
    <>
      <circle cx="10" cy="10" r="2.5" />
      <path d="M10 2v2.5M10 15.5V18M2 10h2.5M15.5 10H18M4.3 4.3l1.8 1.8M13.9 13.9l1.8 1.8M4.3 15.7l1.8-1.8M13.9 6.1l1.8-1.8" strokeLinecap="round" />
    </>
  ),
};

const links = [
  { to: '/admin/dashboard', label: 'Dashboard', icon: 'dashboard' },
  { to: '/admin/tenants', label: 'Tenants', icon: 'tenants' },
  { to: '/admin/templates', label: 'Templates', icon: 'templates' },
  { to: '/admin/settings', label: 'Settings', icon: 'settings' },
] as const;

const linkClass = ({ isActive }: { isActive: boolean }) =>
  `flex items-center gap-3 whitespace-nowrap rounded-lg px-3 py-2 text-sm font-medium transition ${
    isActive ? 'bg-emerald-500/15 text-emerald-300' : 'text-slate-300 hover:bg-white/5 hover:text-white'
  }`;

function Icon({ name }: { name: string }) {
  return (
    <svg viewBox="0 0 20 20" className="size-5 shrink-0" fill="none" stroke="currentColor" strokeWidth="1.6" aria-hidden="true">
      {icons[name]}
    </svg>
  );
}

/** Guards the operator pages (signed-out → /admin/login) and frames them with the sidebar. */
export function AdminLayout() {
  const { session, verifying, logout } = useAdminSession();

  if (!session) return <Navigate to="/admin/login" replace />;
  if (verifying) {
    return (
      <div className="grid min-h-screen place-items-center bg-slate-50 text-emerald-600" role="status" aria-label="Verificando sesión">
        <Spinner className="size-8" />
      </div>
    );
  }

  return (
    <div className="flex min-h-screen flex-col bg-slate-50 md:flex-row">
      <aside className="flex shrink-0 flex-col bg-slate-900 md:sticky md:top-0 md:h-screen md:w-60">
        <div className="flex items-center justify-between gap-2 px-5 py-5">
          <BrandLogo inverted />
          <span className="rounded-md bg-emerald-500/15 px-2 py-0.5 text-[11px] font-semibold tracking-wide text-emerald-300 uppercase">Admin</span>
        </div>
        <nav aria-label="Administración" className="flex gap-1 overflow-x-auto px-3 pb-3 md:flex-1 md:flex-col md:overflow-visible">
          {links.map((link) => (
            <NavLink key={link.to} to={link.to} className={linkClass}>
              <Icon name={link.icon} />
              {link.label}
            </NavLink>
          ))}
        </nav>
        <div className="border-t border-white/10 px-3 py-3">
          <p className="truncate px-3 pb-2 text-xs text-slate-400" title={session.user.email}>
            {session.user.email}
          </p>
          <a
            href="/admin/login"
            onClick={(event) => {
              event.preventDefault();
              void logout();
            }}
            className="flex items-center gap-3 rounded-lg px-3 py-2 text-sm font-medium text-slate-300 transition hover:bg-white/5 hover:text-white"
          >
            <svg viewBox="0 0 20 20" className="size-5 shrink-0" fill="none" stroke="currentColor" strokeWidth="1.6" aria-hidden="true">
              <path d="M8 4H4v12h4M12 6l4 4-4 4M16 10H8" strokeLinecap="round" strokeLinejoin="round" />
            </svg>
            Salir ({firstName(session.user.name)})
          </a>
        </div>
      </aside>
      <main className="min-w-0 flex-1 px-4 py-6 sm:px-8 sm:py-8">
        <Outlet />
      </main>
    </div>
  );
}
