import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Button } from '../../shared/ui/Button.tsx';
import { Modal } from '../../shared/ui/Modal.tsx';
import { Spinner } from '../../shared/ui/Spinner.tsx';
import { useModal } from '../../shared/ui/use-modal.ts';
import { errorMessageOr } from '../../shared/api-client/api-error.ts';
import { shortDateTime, timeAgo } from '../whatsapp-activity/activity-format.ts';
import { WhatsAppActivityPanel } from '../whatsapp-activity/WhatsAppActivityPanel.tsx';
import { operatorActivity, silentCompanies } from '../whatsapp-activity/whatsapp-activity.api.ts';

/** On a company's card: its WhatsApp activity, as the company sees it, with Reintentar. */
export function TenantActivityButton({ tenant }: { tenant: { id: string; name: string } }) {
  const modal = useModal();
  const open = () =>
    modal.open((close) => (
      <Modal title={`Actividad WhatsApp · ${tenant.name}`} size="lg" onClose={close}>
        <WhatsAppActivityPanel source={operatorActivity(tenant.id)} />
      </Modal>
    ));
  return (
    <Button variant="secondary" size="sm" onClick={open} aria-label={`Actividad WhatsApp de ${tenant.name}`}>
      Actividad WhatsApp
    </Button>
  );
}

const SILENCE_OPTIONS = [
  { hours: 6, label: '6 horas' },
  { hours: 24, label: '24 horas' },
  { hours: 72, label: '3 días' },
  { hours: 168, label: '7 días' },
];

/** Companies that had customer messages before and none for the chosen time: a webhook or a number gone wrong. */
export function SilentCompaniesCard() {
  const selectId = useId();
  const [hours, setHours] = useState(24);
  const silent = useQuery({ queryKey: ['admin', 'silent-companies', hours], queryFn: () => silentCompanies(hours) });
  return (
    <section aria-label="Empresas sin mensajes entrantes" className="mt-6 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 className="text-base font-semibold text-slate-900">Empresas sin mensajes entrantes</h2>
          <p className="text-sm text-slate-500">Recibían mensajes de clientes y dejaron de recibirlos.</p>
        </div>
        <div>
          <label htmlFor={selectId} className="mb-1 block text-xs font-medium text-slate-500">
            Sin mensajes desde hace
          </label>
          <select
            id={selectId}
            value={hours}
            onChange={(event) => setHours(Number(event.target.value))}
            className="h-8 rounded-lg border border-slate-300 bg-white px-2 text-sm text-slate-900 shadow-sm"
          >
            {SILENCE_OPTIONS.map((option) => (
              <option key={option.hours} value={option.hours}>
                {option.label}
              </option>
            ))}
          </select>
        </div>
      </div>
      <div className="mt-4">
        {silent.isPending && <Spinner className="size-5 text-emerald-600" />}
        {silent.isError && <p className="text-sm text-rose-600">{errorMessageOr(silent.error, 'No se pudo cargar la lista.')}</p>}
        {silent.data?.length === 0 && <p className="text-sm text-slate-500">Ninguna: todas las empresas con tráfico siguen recibiendo mensajes.</p>}
        {silent.data && silent.data.length > 0 && (
          <ul className="divide-y divide-slate-100 rounded-xl ring-1 ring-slate-200">
            {silent.data.map((company) => (
              <li key={company.tenantId} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3 text-sm" data-testid="silent-company">
                <div>
                  <p className="font-medium text-slate-900">{company.name}</p>
                  <p className="text-xs text-slate-500" title={shortDateTime(company.lastInboundMessageAt)}>
                    <span className="font-mono">{company.slug}</span> · último mensaje {timeAgo(company.lastInboundMessageAt)}
                  </p>
                </div>
                <TenantActivityButton tenant={{ id: company.tenantId, name: company.name }} />
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}
