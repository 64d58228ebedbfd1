import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import type { BatchDto } from '@embudo/contracts/http/bulk-sends';
import { errorMessageOr } from '../../shared/api-client/api-error.ts';
import { useOnJoin } from '../../shared/realtime-client/use-on-join.ts';
import { useSocketEvent } from '../../shared/realtime-client/use-socket-event.ts';
import { Spinner } from '../../shared/ui/Spinner.tsx';
import { StatusChip } from '../../shared/ui/StatusChip.tsx';
import { useToast } from '../../shared/ui/use-toast.ts';
import { batchFunnel, batchPace, batchStatusViews } from './batch-funnel.ts';
import { Button } from '../../shared/ui/Button.tsx';
import { batchesKey, batchFailuresKey, bulkSendsApi } from './bulk-sends.api.ts';
import { downloadFailedRowsWorkbook } from './excel-workbook.ts';

export const LOAD_FAILED = 'Failed to load batches.';

const dateFormat = new Intl.DateTimeFormat('es-ES', { dateStyle: 'medium', timeStyle: 'short' });
const headers = ['Fecha', 'Estado', 'Plantilla', 'Iniciado Por', 'Total', 'Enviados', 'Entregados', 'Leídos', 'Respondidos', 'Fallidos'] as const;

/** A count with its step of the funnel (spec 02 §9), e.g. 3 and 75%. */
function Count({ value, share, testId }: { value: number; share?: string; testId: string }) {
  return (
    <td className="px-3 py-3 text-right tabular-nums">
      <span data-testid={testId} className="font-semibold text-slate-900">
        {value}
      </span>
      {share !== undefined && (
        <span data-testid={`${testId}-percent`} className="block text-xs text-slate-500">
          {share}
        </span>
      )}
    </td>
  );
}

/** Issue 18: a batch's failed rows with phone and reason, and the same list as a spreadsheet. */
function FailedRows({ batch }: { batch: BatchDto }) {
  const toast = useToast();
  const failures = useQuery({ queryKey: batchFailuresKey(batch.id), queryFn: () => bulkSendsApi.failures(batch.id) });
  const download = async () => {
    try {
      await downloadFailedRowsWorkbook(batch.message_template_name, failures.data ?? []);
    } catch {
      toast.error('No se pudo generar la hoja de cálculo.');
    }
  };
  return (
    <tr data-testid="batch-failures" data-batch-id={batch.id} className="bg-rose-50/40">
      <td colSpan={headers.length} className="px-3 py-3">
        {failures.isLoading ? (
          <Spinner className="size-5 text-slate-400" />
        ) : failures.isError ? (
          <p role="alert" className="text-sm text-rose-600">
            {errorMessageOr(failures.error, 'No se pudieron cargar los envíos fallidos.')}
          </p>
        ) : (
          <div className="space-y-2">
            <div className="flex items-center justify-between gap-3">
              <p className="text-sm font-semibold text-slate-800">Envíos fallidos ({failures.data!.length})</p>
              <Button size="sm" variant="secondary" onClick={() => void download()} disabled={failures.data!.length === 0}>
                Descargar (.xlsx)
              </Button>
            </div>
            <table className="min-w-full text-xs">
              <thead className="text-left text-slate-500">
                <tr>
                  <th scope="col" className="py-1 pr-3 font-medium">
                    Fila
                  </th>
                  <th scope="col" className="py-1 pr-3 font-medium">
                    Teléfono
                  </th>
                  <th scope="col" className="py-1 pr-3 font-medium">
                    Nombre
                  </th>
                  <th scope="col" className="py-1 pr-3 font-medium">
                    Motivo
                  </th>
                </tr>
              </thead>
              <tbody>
                {failures.data!.map((row) => (
                  <tr key={row.row_number} data-testid="batch-failure-row" className="border-t border-rose-100 text-slate-700">
                    <td className="py-1 pr-3 tabular-nums">{row.row_number}</td>
                    <td className="py-1 pr-3 font-mono" data-testid="batch-failure-phone">
                      {row.phone ?? '—'}
                    </td>
                    <td className="py-1 pr-3">{row.contact_name ?? ''}</td>
                    <td className="py-1 pr-3 text-rose-700" data-testid="batch-failure-reason">
                      {row.reason}
                      {row.code && !row.reason.includes(row.code) ? <span className="text-slate-600"> (código {row.code})</span> : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </td>
    </tr>
  );
}

function BatchRow({ batch }: { batch: BatchDto }) {
  const funnel = batchFunnel(batch);
  const status = batchStatusViews[batch.status];
  const pace = batchPace(batch);
  const failed = batch.failed_count > 0;
  const [showFailures, setShowFailures] = useState(false);
  return (
    <>
      <tr data-testid="batch-row" data-batch-id={batch.id} className="border-t border-slate-100 align-top">
        <td className="px-3 py-3 whitespace-nowrap text-slate-700">{dateFormat.format(new Date(batch.created_at))}</td>
        <td className="px-3 py-3">
          <StatusChip data-testid="batch-status" data-status={batch.status} tone={status.tone} label={status.label} />
          {pace && (
            <p data-testid="batch-pace" className="mt-1 text-xs whitespace-nowrap text-slate-500">
              {pace}
            </p>
          )}
        </td>
        <td className="px-3 py-3 font-mono text-xs text-slate-800">{batch.message_template_name}</td>
        <td className="px-3 py-3 text-slate-700">{batch.user_name}</td>
        <Count value={batch.total_messages} testId="batch-total" />
        <Count value={batch.sent_count} share={funnel.sent} testId="batch-sent" />
        <Count value={batch.delivered_count} share={funnel.delivered} testId="batch-delivered" />
        <Count value={batch.read_count} share={funnel.read} testId="batch-read" />
        <Count value={batch.replied_count} share={funnel.replied} testId="batch-replied" />
        <td className="px-3 py-3 text-right tabular-nums">
          <span
            data-testid="batch-failed"
            data-highlighted={failed}
            className={
              failed
                ? 'inline-flex rounded-full bg-rose-50 px-2 py-0.5 font-semibold text-rose-700 ring-1 ring-rose-600/20 ring-inset'
                : 'font-semibold text-slate-900'
            }
          >
            {batch.failed_count}
          </span>
          {failed && batch.failure_reason && (
            <p data-testid="batch-failure-reason" className="mt-1 ml-auto max-w-56 text-left text-xs font-normal text-rose-700">
              {batch.failure_reason}
            </p>
          )}
          {failed && (
            <button
              type="button"
              aria-expanded={showFailures}
              onClick={() => setShowFailures((open) => !open)}
              className="mt-1 text-xs font-semibold text-rose-700 underline hover:text-rose-900"
            >
              {showFailures ? 'Ocultar fallidos' : 'Ver fallidos'}
            </button>
          )}
        </td>
      </tr>
      {failed && showFailures && <FailedRows batch={batch} />}
    </>
  );
}

/** /t/{slug}/batches (spec 02 §2 Batches): every bulk send with its live counts. */
export function BatchesPage() {
  const { tenantSlug = '' } = useParams();
  const toast = useToast();
  const queryClient = useQueryClient();
  const batches = useQuery({ queryKey: batchesKey, queryFn: bulkSendsApi.list });
  const refetch = () => void queryClient.invalidateQueries({ queryKey: batchesKey });

  // Spec 02 §4: the list is read again whenever the server pushes batch_updated, and after a join that may have missed one.
  useSocketEvent('batch_updated', refetch);
  useOnJoin(refetch);

  const loadError = batches.error;
  useEffect(() => {
    if (loadError) toast.error(errorMessageOr(loadError, LOAD_FAILED));
  }, [loadError, toast]);

  return (
    <div className="mx-auto max-w-7xl px-4 py-6 sm:px-6">
      <h1 className="text-2xl font-bold tracking-tight text-slate-900">Dashboard de Envíos Masivos</h1>
      <p className="mt-1 text-sm text-slate-500">Enviados sobre el total, entregados sobre enviados, leídos sobre entregados y respondidos sobre enviados.</p>

      {batches.isLoading ? (
        <div className="grid place-items-center py-16 text-slate-400">
          <Spinner className="size-8" />
        </div>
      ) : batches.isError ? (
        <p role="alert" className="mt-8 text-center text-sm text-rose-600">
          {errorMessageOr(batches.error, LOAD_FAILED)}
        </p>
      ) : (batches.data ?? []).length === 0 ? (
        <div className="mt-8 rounded-2xl bg-white px-6 py-12 text-center shadow-sm ring-1 ring-slate-200">
          <p className="text-sm text-slate-600">Aún no hay envíos masivos. Inicia uno con el botón Envío Masivo en la vista del funnel.</p>
          <Link
            to={`/t/${tenantSlug}`}
            className="mt-4 inline-flex h-10 items-center rounded-lg px-4 text-sm font-semibold text-emerald-700 ring-1 ring-emerald-600/30 ring-inset hover:bg-emerald-50"
          >
            Ir al Sales Funnel
          </Link>
        </div>
      ) : (
        <div className="mt-6 overflow-x-auto rounded-2xl bg-white shadow-sm ring-1 ring-slate-200">
          <table className="min-w-full text-sm">
            <thead className="bg-slate-50 text-xs font-semibold tracking-wide text-slate-500 uppercase">
              <tr>
                {headers.map((header, index) => (
                  <th key={header} scope="col" className={`px-3 py-3 ${index >= 4 ? 'text-right' : 'text-left'}`}>
                    {header}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {batches.data!.map((batch) => (
                <BatchRow key={batch.id} batch={batch} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
