import { Button } from '../../shared/ui/Button.tsx';
import type { AgendaView } from './agenda-calendar.ts';

const views: Array<{ value: AgendaView; label: string }> = [
  { value: 'day', label: 'Día' },
  { value: 'week', label: 'Semana' },
  { value: 'month', label: 'Mes' },
];

interface AgendaToolbarProps {
  title: string;
  view: AgendaView;
  onPrevious: () => void;
  onToday: () => void;
  onNext: () => void;
  onExport: () => void;
  onView: (view: AgendaView) => void;
}

/** Previous / Hoy / next, the range title, Exportar JSON and the Día / Semana / Mes switch (spec 02 §2). */
export function AgendaToolbar({ title, view, onPrevious, onToday, onNext, onExport, onView }: AgendaToolbarProps) {
  return (
    <div className="flex flex-wrap items-center gap-3 border-b border-slate-200 bg-white px-4 py-3">
      <h1 className="sr-only">Agenda</h1>
      <div className="flex items-center gap-1">
        <Button size="sm" variant="secondary" aria-label="Anterior" title="Anterior" onClick={onPrevious}>
          <svg viewBox="0 0 20 20" className="size-4" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
            <path d="m12 5-5 5 5 5" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
        </Button>
        <Button size="sm" variant="secondary" onClick={onToday}>
          Hoy
        </Button>
        <Button size="sm" variant="secondary" aria-label="Siguiente" title="Siguiente" onClick={onNext}>
          <svg viewBox="0 0 20 20" className="size-4" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
            <path d="m8 5 5 5-5 5" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
        </Button>
      </div>
      <h2 data-testid="agenda-range-title" aria-live="polite" className="text-lg font-semibold text-slate-900">
        {title}
      </h2>
      <div className="ml-auto flex flex-wrap items-center gap-2">
        <Button size="sm" variant="secondary" onClick={onExport}>
          Exportar JSON
        </Button>
        <div role="group" aria-label="Vista" className="inline-flex rounded-lg bg-slate-100 p-0.5">
          {views.map((option) => (
            <button
              key={option.value}
              type="button"
              aria-pressed={view === option.value}
              onClick={() => onView(option.value)}
              className={`rounded-md px-3 py-1.5 text-sm font-medium transition ${view === option.value ? 'bg-white text-slate-900 shadow-sm' : 'text-slate-600 hover:text-slate-900'}`}
            >
              {option.label}
            </button>
          ))}
        </div>
      </div>
    </div>
  );
}
