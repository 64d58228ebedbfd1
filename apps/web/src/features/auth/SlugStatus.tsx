import { slugMessages } from '@embudo/contracts/http/auth';
import { Spinner } from '../../shared/ui/Spinner.tsx';
import type { SlugAvailability } from './use-slug-availability.ts';

const texts: Record<SlugAvailability, string> = {
  idle: '',
  checking: 'Verificando...',
  available: 'Disponible',
  taken: slugMessages.taken,
};

/** Live availability next to the slug field. */
export function SlugStatus({ state }: { state: SlugAvailability }) {
  return (
    <span
      data-testid="slug-status"
      data-state={state}
      aria-live="polite"
      className={`inline-flex items-center gap-1.5 text-xs font-medium ${
        state === 'available' ? 'text-emerald-600' : state === 'taken' ? 'text-rose-600' : 'text-slate-500'
      }`}
    >
      {state === 'checking' && <Spinner className="size-3.5" />}
      {state === 'available' && (
        <svg viewBox="0 0 12 12" className="size-3.5" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
          <path d="m2.5 6.2 2.2 2.2 4.8-4.8" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
      )}
      {state === 'taken' && (
        <svg viewBox="0 0 12 12" className="size-3.5" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
          <path d="m3 3 6 6M9 3 3 9" strokeLinecap="round" />
        </svg>
      )}
      {texts[state]}
    </span>
  );
}
