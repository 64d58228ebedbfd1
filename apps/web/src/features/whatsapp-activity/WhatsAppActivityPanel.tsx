import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { errorMessageOr } from '../../shared/api-client/api-error.ts';
import { Button } from '../../shared/ui/Button.tsx';
import { Spinner } from '../../shared/ui/Spinner.tsx';
import { useToast } from '../../shared/ui/use-toast.ts';
import { dailyLimitLabel, numberEventLabel, qualityLabel, refusalLabels, shortDateTime, timeAgo } from './activity-format.ts';
import { DeliveriesChart } from './DeliveriesChart.tsx';
import type { ActivitySource, NumberHealth, WhatsappActivity } from './whatsapp-activity.api.ts';

function Section({ title, count, children }: { title: string; count?: number; children: ReactNode }) {
  return (
    <section aria-label={title} className="space-y-2">
      <h4 className="text-sm font-semibold text-slate-800">
        {title}
        {count !== undefined && <span className="ml-1.5 rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-600">{count}</span>}
      </h4>
      {children}
    </section>
  );
}

const Empty = ({ children }: { children: ReactNode }) => <p className="text-sm text-slate-500">{children}</p>;

const qualityTone = { GREEN: 'text-emerald-700', YELLOW: 'text-amber-700', RED: 'text-rose-700', UNKNOWN: 'text-slate-900' } as const;

/** Issue 43: the number's quality, its daily limit and the provider's last word about it. */
function NumberHealthDetails({ health }: { health: NumberHealth }) {
  const reported = health.lastEvent !== null || health.quality !== null;
  return (
    <Section title="Salud del número">
      <ul className="space-y-1 text-sm text-slate-700" data-testid="number-health">
        <li>
          Calidad del número: <span className={`font-semibold ${qualityTone[health.quality ?? 'UNKNOWN']}`}>{qualityLabel(health.quality)}</span>
        </li>
        <li>Límite diario: {dailyLimitLabel(health.dailyLimit, reported)}</li>
        <li className="text-slate-600">
          {health.lastEvent ? numberEventLabel(health.lastEvent, health.lastEventAt) : 'Meta aún no envió avisos sobre el número.'}
        </li>
      </ul>
    </Section>
  );
}

function ActivityDetails({ activity, onRetry, retrying }: { activity: WhatsappActivity; onRetry: (jobId: string) => void; retrying: string | undefined }) {
  return (
    <div className="space-y-5">
      <dl className="grid gap-3 sm:grid-cols-2">
        <div className="rounded-xl bg-slate-50 p-3">
          <dt className="text-xs text-slate-500">Último mensaje de un cliente</dt>
          <dd className="text-sm font-semibold text-slate-900" data-testid="last-inbound" title={activity.lastInboundMessageAt ?? undefined}>
            {timeAgo(activity.lastInboundMessageAt)}
          </dd>
        </div>
        <div className="rounded-xl bg-slate-50 p-3">
          <dt className="text-xs text-slate-500">Último estado de entrega</dt>
          <dd className="text-sm font-semibold text-slate-900" data-testid="last-status" title={activity.lastStatusAt ?? undefined}>
            {timeAgo(activity.lastStatusAt)}
          </dd>
        </div>
      </dl>

      {activity.numberHealth && <NumberHealthDetails health={activity.numberHealth} />}

      <Section title="Entregas por hora (últimas 24 h)">
        <DeliveriesChart hours={activity.hours} />
      </Section>

      <Section title="Entregas rechazadas" count={activity.refusedDeliveries.length}>
        {activity.refusedDeliveries.length === 0 ? (
          <Empty>Ninguna en los últimos 7 días.</Empty>
        ) : (
          <ul className="divide-y divide-slate-100 rounded-xl ring-1 ring-slate-200">
            {activity.refusedDeliveries.map((refused) => (
              <li key={refused.id} className="p-3 text-sm" data-testid="refused-delivery">
                <div className="flex flex-wrap items-baseline justify-between gap-2">
                  <span className="font-medium text-rose-700">{refusalLabels[refused.kind]}</span>
                  <span className="text-xs text-slate-500">{shortDateTime(refused.receivedAt)}</span>
                </div>
                <p className="text-slate-600">{refused.reason}</p>
                <details className="mt-1">
                  <summary className="cursor-pointer text-xs text-slate-500">Ver lo que llegó</summary>
                  <pre className="mt-1 max-h-40 overflow-auto rounded-lg bg-slate-900 p-2 text-xs break-all whitespace-pre-wrap text-slate-100">
                    {refused.rawBody || '(vacío)'}
                  </pre>
                </details>
              </li>
            ))}
          </ul>
        )}
      </Section>

      <Section title="Envíos fallidos" count={activity.failedSends.length}>
        {activity.failedSends.length === 0 ? (
          <Empty>Ninguno en los últimos 7 días.</Empty>
        ) : (
          <ul className="divide-y divide-slate-100 rounded-xl ring-1 ring-slate-200">
            {activity.failedSends.map((send) => (
              <li key={send.messageId} className="p-3 text-sm" data-testid="failed-send">
                <div className="flex flex-wrap items-baseline justify-between gap-2">
                  <span className="font-medium text-slate-800">
                    {send.chatTitle} <span className="font-normal text-slate-500">· {send.phone}</span>
                  </span>
                  <span className="text-xs text-slate-500">{shortDateTime(send.createdAt)}</span>
                </div>
                <p className="text-slate-600">
                  {send.code && <span className="mr-1 rounded bg-rose-50 px-1.5 py-0.5 font-mono text-xs text-rose-700">{send.code}</span>}
                  {send.reason}
                </p>
              </li>
            ))}
          </ul>
        )}
      </Section>

      <Section title="Trabajos fallidos" count={activity.failedJobs.length}>
        {activity.failedJobs.length === 0 ? (
          <Empty>Ninguno: todo lo pendiente se completó o sigue en curso.</Empty>
        ) : (
          <ul className="divide-y divide-slate-100 rounded-xl ring-1 ring-slate-200">
            {activity.failedJobs.map((job) => (
              <li key={job.id} className="flex items-start justify-between gap-3 p-3 text-sm" data-testid="failed-job">
                <div className="min-w-0">
                  <p className="font-medium text-slate-800">{job.label}</p>
                  {job.lastError && <p className="break-words text-slate-600">{job.lastError}</p>}
                  <p className="text-xs text-slate-500">
                    {job.failedAt ? shortDateTime(job.failedAt) : ''} · {job.attempts} {job.attempts === 1 ? 'intento' : 'intentos'}
                  </p>
                </div>
                <Button variant="secondary" size="sm" loading={retrying === job.id} onClick={() => onRetry(job.id)} aria-label={`Reintentar: ${job.label}`}>
                  Reintentar
                </Button>
              </li>
            ))}
          </ul>
        )}
      </Section>
    </div>
  );
}

/**
 * Is WhatsApp reaching the company, and what went wrong: last message and status, deliveries per hour, refused
 * deliveries, failed sends, and jobs that failed for good with Reintentar. The company's panel and the operator's
 * differ only in their source.
 */
export function WhatsAppActivityPanel({ source }: { source: ActivitySource }) {
  const toast = useToast();
  const queryClient = useQueryClient();
  const activity = useQuery({ queryKey: source.key, queryFn: source.load, retry: false });
  const retry = useMutation({
    mutationFn: source.retry,
    onSuccess: () => toast.success('El trabajo se volvió a poner en la cola.'),
    onError: (error) => toast.error(errorMessageOr(error, 'No se pudo reintentar el trabajo.')),
    onSettled: () => queryClient.invalidateQueries({ queryKey: source.key }),
  });

  return (
    <div className="space-y-3" data-testid="whatsapp-activity">
      <div className="flex items-center justify-between gap-2">
        <h3 className="text-base font-semibold text-slate-900">Actividad de WhatsApp</h3>
        <Button variant="secondary" size="sm" onClick={() => void activity.refetch()} loading={activity.isFetching && !activity.isPending}>
          Actualizar
        </Button>
      </div>
      {activity.isPending && (
        <div className="flex justify-center py-6 text-emerald-600" aria-label="Cargando actividad">
          <Spinner className="size-6" />
        </div>
      )}
      {activity.isError && <p className="text-sm text-rose-600">{errorMessageOr(activity.error, 'No se pudo cargar la actividad de WhatsApp.')}</p>}
      {activity.data && (
        <ActivityDetails activity={activity.data} onRetry={(jobId) => retry.mutate(jobId)} retrying={retry.isPending ? retry.variables : undefined} />
      )}
    </div>
  );
}
