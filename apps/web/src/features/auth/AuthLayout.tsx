import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { BrandLogo } from '../../shared/ui/BrandLogo.tsx';

const highlights = [
  'Todas tus conversaciones de WhatsApp en un solo lugar',
  'Embudos de venta visuales para todo tu equipo',
  'Asistente con IA y bots sin código',
];

/** Split screen for the sign-in pages: brand panel on the left, the form card on the right. */
export function AuthLayout({ title, subtitle, children, footer }: { title: string; subtitle?: ReactNode; children: ReactNode; footer?: ReactNode }) {
  return (
    <div className="flex min-h-screen bg-white">
      <aside className="relative hidden w-[44%] overflow-hidden bg-gradient-to-br from-emerald-600 via-emerald-700 to-teal-900 p-12 text-white lg:flex lg:flex-col lg:justify-between">
        <div className="pointer-events-none absolute -top-24 -right-24 size-96 rounded-full bg-white/10 blur-3xl" aria-hidden="true" />
        <div className="pointer-events-none absolute bottom-0 left-0 size-72 rounded-full bg-teal-300/10 blur-3xl" aria-hidden="true" />
        <Link to="/" className="relative w-fit">
          <BrandLogo inverted />
        </Link>
        <div className="relative">
          <p className="max-w-md text-3xl leading-tight font-semibold">Convierte cada chat de WhatsApp en una venta.</p>
          <ul className="mt-8 space-y-4">
            {highlights.map((text) => (
              <li key={text} className="flex items-center gap-3 text-emerald-50">
                <span className="grid size-6 place-items-center rounded-full bg-white/15" aria-hidden="true">
                  <svg viewBox="0 0 12 12" className="size-3" fill="none" stroke="currentColor" strokeWidth="2">
                    <path d="m2.5 6.2 2.2 2.2 4.8-4.8" strokeLinecap="round" strokeLinejoin="round" />
                  </svg>
                </span>
                {text}
              </li>
            ))}
          </ul>
        </div>
        <p className="relative text-sm text-emerald-100/80">© {new Date().getFullYear()} Embudo</p>
      </aside>
      <main className="flex flex-1 items-center justify-center bg-slate-50 px-4 py-12 sm:px-8">
        <div className="w-full max-w-md">
          <Link to="/" className="mb-8 inline-block lg:hidden">
            <BrandLogo />
          </Link>
          <div className="rounded-2xl bg-white p-8 shadow-xl shadow-slate-900/5 ring-1 ring-slate-200">
            <h1 className="text-2xl font-bold tracking-tight text-slate-900">{title}</h1>
            {subtitle && <p className="mt-1.5 text-sm text-slate-500">{subtitle}</p>}
            <div className="mt-7">{children}</div>
          </div>
          {footer && <div className="mt-6 text-center text-sm text-slate-600">{footer}</div>}
        </div>
      </main>
    </div>
  );
}
