import { useQuery } from '@tanstack/react-query';
import { ApiError } from '../../shared/api-client/api-error.ts';
import { Button } from '../../shared/ui/Button.tsx';
import { Modal } from '../../shared/ui/Modal.tsx';
import { Spinner } from '../../shared/ui/Spinner.tsx';
import { usageApi } from './usage.api.ts';

const counters: Array<{
  field: 'sentCount' | 'receivedCount' | 'marketingTemplateCount' | 'utilityTemplateCount' | 'aiAnswerCount' | 'aiTokenCount';
  label: string;
}> = [
  { field: 'sentCount', label: 'Mensajes enviados' },
  { field: 'receivedCount', label: 'Mensajes recibidos' },
  { field: 'marketingTemplateCount', label: 'Plantillas de marketing' },
  { field: 'utilityTemplateCount', label: 'Plantillas de utilidad' },
  { field: 'aiAnswerCount', label: 'Respuestas de IA' },
  { field: 'aiTokenCount', label: 'Tokens de IA' },
];

function currentMonthLabel() {
  const label = new Intl.DateTimeFormat('es', { month: 'long', year: 'numeric' }).format(new Date());
  return label.charAt(0).toUpperCase() + label.slice(1);
}

/** Mi Consumo: this month's cost and message counts. */
export function UsageModal({ onClose }: { onClose: () => void }) {
  const usage = useQuery({ queryKey: ['usage', 'current-month'], queryFn: usageApi.currentMonth, retry: false });
  const data = usage.data;

  return (
    <Modal
      title="Mi Consumo"
      description={`Consumo del mes actual · ${currentMonthLabel()}`}
      onClose={onClose}
      footer={
        <Button variant="secondary" onClick={onClose}>
          Cerrar
        </Button>
      }
    >
      {usage.isPending && (
        <div className="flex justify-center py-10 text-emerald-600" aria-label="Cargando consumo">
          <Spinner className="size-6" />
        </div>
      )}
      {usage.isError && (
        <div role="alert" className="rounded-xl border border-rose-200 bg-rose-50 p-4 text-sm text-rose-700">
          <p className="font-semibold">Error al cargar el consumo</p>
          {usage.error instanceof ApiError && usage.error.serverMessage && <p className="mt-1 text-rose-600">{usage.error.serverMessage}</p>}
        </div>
      )}
      {usage.isSuccess && !usage.data && (
        <p className="rounded-xl bg-slate-50 p-6 text-center text-sm text-slate-500">No se encontraron datos de consumo para el mes actual.</p>
      )}
      {data && (
        <div className="space-y-4">
          <div className="rounded-xl bg-gradient-to-br from-emerald-600 to-teal-700 p-5 text-white shadow-sm">
            <p className="text-sm text-emerald-100">Costo total</p>
            <p className="mt-1 text-3xl font-bold tabular-nums">${data.totalCost.toFixed(4)}</p>
          </div>
          <dl className="grid grid-cols-2 gap-3">
            {counters.map(({ field, label }) => (
              <div key={field} className="rounded-xl border border-slate-200 p-4">
                <dt className="text-xs font-medium text-slate-500">{label}</dt>
                <dd className="mt-1 text-2xl font-semibold text-slate-900 tabular-nums">{data[field].toLocaleString('es')}</dd>
              </div>
            ))}
          </dl>
          <p className="text-xs text-slate-500" data-testid="usage-billing-rule">
            Solo se cobra lo que WhatsApp aceptó: los envíos que fallan no se cobran.
            {data.failedUnbilledCount > 0 && ` Este mes: ${data.failedUnbilledCount.toLocaleString('es')} envíos fallidos sin cobrar.`}
          </p>
        </div>
      )}
    </Modal>
  );
}
