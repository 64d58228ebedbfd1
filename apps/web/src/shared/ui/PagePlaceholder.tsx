import type { ReactNode } from 'react';

/** The page title and an empty panel, for screens that later issues fill in. */
export function PagePlaceholder({ title, description, actions }: { title: string; description?: string; actions?: ReactNode }) {
  return (
    <section className="mx-auto max-w-7xl px-4 py-8 sm:px-6 lg:px-8">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-2xl font-bold tracking-tight text-slate-900">{title}</h1>
        {actions}
      </div>
      <div className="mt-6 grid min-h-64 place-items-center rounded-2xl border border-dashed border-slate-300 bg-white/60 p-10 text-center">
        <div>
          <div className="mx-auto mb-3 grid size-12 place-items-center rounded-full bg-emerald-50 text-emerald-600">
            <svg viewBox="0 0 24 24" className="size-6" fill="none" stroke="currentColor" strokeWidth="1.8" aria-hidden="true">
              <path d="M12 6v6l4 2" strokeLinecap="round" />
              <circle cx="12" cy="12" r="9" />
            </svg>
          </div>
          <p className="text-sm text-slate-500">{description ?? 'Esta sección estará disponible próximamente.'}</p>
        </div>
      </div>
    </section>
  );
}
