import { Link, Outlet } from 'react-router';
import { roleLabels } from '../shell/role-labels.ts';
import { usePermissions, type Permissions } from './use-permissions.ts';
import { useSession } from './use-session.ts';

export const NO_PERMISSION_TITLE = 'No tienes permiso para ver esta sección';

type Capability = { [K in keyof Permissions]: Permissions[K] extends boolean ? K : never }[keyof Permissions];

/** What a role may not use is not shown: the same page whatever the route, with the way back to the board. */
export function NoPermissionPage() {
  const { session } = useSession();
  const role = session?.user.role ?? 'viewer';
  return (
    <section className="mx-auto grid max-w-xl place-items-center px-4 py-16 text-center sm:px-6">
      <div className="mb-4 grid size-14 place-items-center rounded-full bg-amber-50 text-amber-600" aria-hidden="true">
        <svg viewBox="0 0 24 24" className="size-7" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round">
          <rect x="5" y="11" width="14" height="9" rx="2" />
          <path d="M8 11V8a4 4 0 0 1 8 0v3" />
        </svg>
      </div>
      <h1 className="text-2xl font-bold tracking-tight text-slate-900">{NO_PERMISSION_TITLE}</h1>
      <p className="mt-2 text-sm text-slate-600">
        Tu rol de {roleLabels[role]} no incluye esta sección. Si la necesitas, pide acceso al propietario o a un administrador de tu empresa.
      </p>
      <Link
        to={`/t/${session?.tenant.slug ?? ''}`}
        className="mt-6 inline-flex items-center rounded-lg bg-emerald-600 px-4 py-2.5 text-sm font-semibold text-white shadow-sm transition hover:bg-emerald-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-600"
      >
        Volver al tablero
      </Link>
    </section>
  );
}

/** A route group only some roles may use, decided by the same permissions that hide their menu entries. */
export function RequirePermission({ need }: { need: Capability }) {
  const permissions = usePermissions();
  return permissions[need] ? <Outlet /> : <NoPermissionPage />;
}
