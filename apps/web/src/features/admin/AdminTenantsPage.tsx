import type { Plan, Role } from '@embudo/contracts/http/auth';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { SEND_RATE_MAX, sendRateRequest } from '@embudo/contracts/http/admin';
import { errorMessageOr } from '../../shared/api-client/api-error.ts';
import { Button } from '../../shared/ui/Button.tsx';
import { useDialogs } from '../../shared/ui/use-dialogs.ts';
import { useModal } from '../../shared/ui/use-modal.ts';
import { useToast } from '../../shared/ui/use-toast.ts';
import { adminApi, adminKeys, planOptions, type AdminTenant, type AdminTenantUser } from './admin.api.ts';
import { formatCost, formatRate } from './admin-format.ts';
import { AdminPageHeader, ErrorBlock, LoadingBlock } from './AdminPageHeader.tsx';
import { TempPasswordModal } from './TempPasswordModal.tsx';
import { TenantActivityButton } from './AdminWhatsAppActivity.tsx';
import { roleLabels } from '../shell/role-labels.ts';

const roleStyles: Record<Role, string> = {
  owner: 'bg-amber-50 text-amber-700 ring-amber-600/20',
  admin: 'bg-violet-50 text-violet-700 ring-violet-600/20',
  agent: 'bg-sky-50 text-sky-700 ring-sky-600/20',
  viewer: 'bg-slate-100 text-slate-600 ring-slate-500/20',
};

function RoleBadge({ role }: { role: Role }) {
  return (
    <span data-role={role} className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${roleStyles[role]}`}>
      {roleLabels[role]}
    </span>
  );
}

function StatusToggle({ user }: { user: AdminTenantUser }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const isOwner = user.role === 'owner';
  const change = useMutation({
    mutationFn: (isActive: boolean) => adminApi.setUserStatus(user.id, isActive),
    onError: (error) => toast.error(errorMessageOr(error, 'Error al cambiar el estado del usuario.')),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.tenants }),
  });
  const active = change.isPending ? change.variables : user.is_active;
  return (
    <div className="flex items-center gap-2">
      <button
        type="button"
        role="switch"
        aria-checked={active}
        aria-label={`Usuario activo: ${user.name}`}
        title={isOwner ? 'El estado del propietario no se puede cambiar.' : undefined}
        disabled={isOwner || change.isPending}
        onClick={() => change.mutate(!user.is_active)}
        className={`relative inline-flex h-6 w-11 shrink-0 items-center rounded-full transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-600 disabled:cursor-not-allowed disabled:opacity-50 ${
          active ? 'bg-emerald-500' : 'bg-slate-300'
        }`}
      >
        <span className={`inline-block size-5 rounded-full bg-white shadow transition-transform ${active ? 'translate-x-5.5' : 'translate-x-0.5'}`} />
      </button>
      <span className={`text-xs font-medium ${active ? 'text-emerald-700' : 'text-slate-500'}`}>{active ? 'Activo' : 'Inactivo'}</span>
    </div>
  );
}

function ResetPasswordButton({ user }: { user: AdminTenantUser }) {
  const toast = useToast();
  const dialogs = useDialogs();
  const modal = useModal();
  const reset = useMutation({
    mutationFn: () => adminApi.resetPassword(user.id),
    onSuccess: ({ tempPassword }) => modal.open((close) => <TempPasswordModal user={user} tempPassword={tempPassword} onClose={close} />),
    onError: (error) => toast.error(errorMessageOr(error, 'Error al resetear la contraseña.')),
  });
  const onClick = async () => {
    const confirmed = await dialogs.confirm({
      title: 'Resetear contraseña',
      message: `Se generará una contraseña temporal para ${user.name} (${user.email}) y se cerrarán sus sesiones abiertas. Deberá cambiarla al iniciar sesión.`,
      confirmText: 'Resetear',
      destructive: true,
    });
    if (confirmed) reset.mutate();
  };
  return (
    <Button variant="secondary" size="sm" loading={reset.isPending} onClick={() => void onClick()} aria-label={`Resetear contraseña de ${user.name}`}>
      Resetear contraseña
    </Button>
  );
}

/** Issue 16: how many messages per second the company's WhatsApp number sends, and whether the provider slowed it. */
function SendRateField({ tenant }: { tenant: AdminTenant }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const inputId = useId();
  const rate = tenant.send_rate;
  const [value, setValue] = useState(rate ? String(rate.messagesPerSecond) : '');
  const [problem, setProblem] = useState<string>();
  const save = useMutation({
    mutationFn: (messagesPerSecond: number) => adminApi.setSendRate(tenant.id, messagesPerSecond),
    onSuccess: () => {
      toast.success('Ritmo de envío actualizado.');
      void queryClient.invalidateQueries({ queryKey: adminKeys.tenants });
    },
    onError: (error) => toast.error(errorMessageOr(error, 'Error al actualizar el ritmo de envío.')),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = sendRateRequest.safeParse({ messagesPerSecond: value.trim() === '' ? undefined : Number(value.replace(',', '.')) });
    setProblem(checked.success ? undefined : checked.error.issues[0]!.message);
    if (checked.success) save.mutate(checked.data.messagesPerSecond);
  };
  const slowed = rate && rate.currentMessagesPerSecond < rate.messagesPerSecond;
  return (
    <form noValidate onSubmit={submit} aria-label="Ritmo de envío" className="col-span-2 sm:col-span-1">
      <label htmlFor={inputId} className="text-xs text-slate-500">
        Mensajes por segundo
      </label>
      <div className="mt-1 flex items-center gap-2">
        <input
          id={inputId}
          type="number"
          inputMode="decimal"
          min={0}
          max={SEND_RATE_MAX}
          step="any"
          value={value}
          onChange={(event) => setValue(event.target.value)}
          aria-invalid={problem ? true : undefined}
          data-testid="tenant-send-rate"
          className="h-8 w-24 rounded-lg border border-slate-300 bg-white px-2 text-sm text-slate-900 tabular-nums shadow-sm outline-none focus:border-emerald-500 focus:ring-4 focus:ring-emerald-100"
        />
        <Button type="submit" size="sm" variant="secondary" loading={save.isPending}>
          Guardar
        </Button>
      </div>
      {problem && (
        <p role="alert" className="mt-1 text-xs text-rose-600">
          {problem}
        </p>
      )}
      {rate && !problem && (
        <p className="mt-1 text-xs text-slate-500" data-testid="tenant-send-rate-note">
          {slowed
            ? `Ahora ${formatRate(rate.currentMessagesPerSecond)} msg/s: el proveedor pidió ir más despacio.`
            : rate.isDefault
              ? 'Predeterminado del proveedor.'
              : 'Fijado por el operador.'}
        </p>
      )}
    </form>
  );
}

function TenantCard({ tenant }: { tenant: AdminTenant }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const selectId = useId();
  const [plan, setPlan] = useState<Plan>(tenant.subscription_plan);
  const save = useMutation({
    mutationFn: () => adminApi.setPlan(tenant.id, plan),
    onSuccess: () => {
      toast.success('Plan actualizado!');
      void queryClient.invalidateQueries({ queryKey: adminKeys.tenants });
    },
    onError: (error) => toast.error(errorMessageOr(error, 'Error al actualizar el plan.')),
  });
  const userCount = tenant.users.length;

  return (
    <article aria-label={tenant.name} data-testid={`tenant-${tenant.slug}`} className="overflow-hidden rounded-2xl bg-white shadow-sm ring-1 ring-slate-200">
      <header className="flex flex-wrap items-start justify-between gap-4 border-b border-slate-100 px-5 py-4">
        <div className="min-w-0">
          <h2 className="truncate text-lg font-semibold text-slate-900">{tenant.name}</h2>
          <p className="font-mono text-xs text-slate-500">{tenant.slug}</p>
        </div>
        <div className="flex flex-wrap items-end gap-2">
          <div>
            <label htmlFor={selectId} className="mb-1 block text-xs font-medium text-slate-500">
              Plan
            </label>
            <select
              id={selectId}
              value={plan}
              onChange={(event) => setPlan(event.target.value as Plan)}
              className="h-8 rounded-lg border border-slate-300 bg-white px-2 text-sm text-slate-900 shadow-sm outline-none focus:border-emerald-500 focus:ring-4 focus:ring-emerald-100"
            >
              {planOptions.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </select>
          </div>
          <Button size="sm" loading={save.isPending} onClick={() => save.mutate()}>
            Guardar plan
          </Button>
          <TenantActivityButton tenant={tenant} />
        </div>
      </header>
      <dl className="grid grid-cols-2 gap-4 border-b border-slate-100 bg-slate-50/60 px-5 py-3 text-sm sm:grid-cols-3">
        <div>
          <dt className="text-xs text-slate-500">Costo del mes</dt>
          <dd className="font-semibold text-slate-900 tabular-nums" data-testid="tenant-cost">
            {formatCost(tenant.usage.totalCost)}
          </dd>
        </div>
        <div>
          <dt className="text-xs text-slate-500">Usuarios</dt>
          <dd className="font-semibold text-slate-900" data-testid="tenant-user-count">
            {userCount} {userCount === 1 ? 'usuario' : 'usuarios'}
          </dd>
        </div>
        <SendRateField tenant={tenant} />
      </dl>
      <div className="overflow-x-auto">
        <table className="min-w-full text-sm">
          <thead className="text-left text-xs font-medium tracking-wide text-slate-500 uppercase">
            <tr>
              <th scope="col" className="px-5 py-2.5">
                Nombre
              </th>
              <th scope="col" className="px-5 py-2.5">
                Email
              </th>
              <th scope="col" className="px-5 py-2.5">
                Rol
              </th>
              <th scope="col" className="px-5 py-2.5">
                Estado
              </th>
              <th scope="col" className="px-5 py-2.5 text-right">
                Acciones
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {tenant.users.map((user) => (
              <tr key={user.id} data-testid={`user-${user.email}`}>
                <td className="px-5 py-3 font-medium whitespace-nowrap text-slate-900">{user.name}</td>
                <td className="px-5 py-3 text-slate-600">{user.email}</td>
                <td className="px-5 py-3">
                  <RoleBadge role={user.role} />
                </td>
                <td className="px-5 py-3">
                  <StatusToggle user={user} />
                </td>
                <td className="px-5 py-3 text-right">
                  <ResetPasswordButton user={user} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </article>
  );
}

/** /admin/tenants: one card per company with its plan, month cost and users (spec 02 §2 Admin area). */
export function AdminTenantsPage() {
  const tenants = useQuery({ queryKey: adminKeys.tenants, queryFn: adminApi.tenants });
  return (
    <div className="mx-auto max-w-6xl">
      <AdminPageHeader title="Tenants" subtitle="Empresas de la plataforma, sus planes, consumo del mes y usuarios." />
      {tenants.isPending && <LoadingBlock />}
      {tenants.isError && <ErrorBlock message="Error al cargar las empresas." onRetry={() => void tenants.refetch()} />}
      {tenants.data?.length === 0 && (
        <p className="rounded-2xl bg-white px-5 py-10 text-center text-sm text-slate-500 ring-1 ring-slate-200">Aún no hay empresas registradas.</p>
      )}
      <div className="space-y-5">
        {tenants.data?.map((tenant) => (
          // Keyed by the saved plan too, so the selector follows a plan changed elsewhere.
          <TenantCard key={`${tenant.id}:${tenant.subscription_plan}`} tenant={tenant} />
        ))}
      </div>
    </div>
  );
}
