import { Spinner } from '../../shared/ui/Spinner.tsx';

/** Shown while the code of the first page is loading. */
export function RouteFallback() {
  return (
    <div className="grid min-h-screen place-items-center bg-slate-50 text-emerald-600" role="status" aria-label="Cargando">
      <Spinner className="size-8" />
    </div>
  );
}
