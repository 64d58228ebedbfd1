import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { OPERATOR_REASON_MAX } from '@embudo/contracts/http/templates';
import { errorMessageOr } from '../../shared/api-client/api-error.ts';
import { Button } from '../../shared/ui/Button.tsx';
import { useToast } from '../../shared/ui/use-toast.ts';
import { adminApi, adminKeys, type AdminTemplate } from './admin.api.ts';
import { AdminPageHeader, ErrorBlock, LoadingBlock } from './AdminPageHeader.tsx';
import { TemplateStatusChip } from '../templates/TemplateStatusChip.tsx';

export const OPERATOR_REVIEW_RULE =
  'Rechazar bloquea la plantilla en la plataforma: la empresa ve el motivo y Sincronizar con Meta no la desbloquea. Aprobar la deja Aprobada (en modo sandbox también en el proveedor de pruebas); en producción, si Meta la rechaza al enviar, el chat y el envío masivo muestran el motivo del proveedor.';

function TemplateActions({ template }: { template: AdminTemplate }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [reason, setReason] = useState('');
  const change = useMutation({
    mutationFn: (status: 'APPROVED' | 'REJECTED') =>
      adminApi.setTemplateStatus(template.id, status, status === 'REJECTED' ? reason.trim() || undefined : undefined),
    onSuccess: (_result, status) => {
      toast.success(status === 'APPROVED' ? 'Plantilla aprobada.' : 'Plantilla rechazada.');
      setReason('');
    },
    onError: (error) => toast.error(errorMessageOr(error, 'Error al actualizar la plantilla.')),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: adminKeys.templates });
      void queryClient.invalidateQueries({ queryKey: adminKeys.stats });
    },
  });
  return (
    <div className="flex flex-col items-end gap-2">
      {template.status !== 'REJECTED' && (
        <input
          type="text"
          value={reason}
          maxLength={OPERATOR_REASON_MAX}
          onChange={(event) => setReason(event.target.value)}
          placeholder="Motivo del rechazo (opcional)"
          aria-label={`Motivo del rechazo de ${template.name} (opcional)`}
          className="w-56 rounded-lg border border-slate-300 px-2 py-1 text-xs focus:border-emerald-500 focus:outline-none"
        />
      )}
      <div className="flex justify-end gap-2">
        {template.status !== 'APPROVED' && (
          <Button
            size="sm"
            disabled={change.isPending}
            loading={change.isPending && change.variables === 'APPROVED'}
            onClick={() => change.mutate('APPROVED')}
            aria-label={`Aprobar ${template.name}`}
          >
            Aprobar
          </Button>
        )}
        {template.status !== 'REJECTED' && (
          <Button
            variant="danger"
            size="sm"
            disabled={change.isPending}
            loading={change.isPending && change.variables === 'REJECTED'}
            onClick={() => change.mutate('REJECTED')}
            aria-label={`Rechazar ${template.name}`}
          >
            Rechazar
          </Button>
        )}
      </div>
    </div>
  );
}

/** /admin/templates: every tenant's templates, approved or rejected by the operator (spec 02 §2 Admin area). */
export function AdminTemplatesPage() {
  const templates = useQuery({ queryKey: adminKeys.templates, queryFn: adminApi.templates });
  return (
    <div className="mx-auto max-w-7xl">
      <AdminPageHeader title="Templates" subtitle="Plantillas de mensajes de todas las empresas." />
      <p className="mb-4 text-sm text-slate-600" data-testid="review-rule">
        {OPERATOR_REVIEW_RULE}
      </p>
      {templates.isPending && <LoadingBlock />}
      {templates.isError && <ErrorBlock message="Failed to load templates." onRetry={() => void templates.refetch()} />}
      {templates.data && (
        <div className="overflow-x-auto rounded-2xl bg-white shadow-sm ring-1 ring-slate-200">
          <table className="min-w-full text-sm">
            <thead className="border-b border-slate-100 text-left text-xs font-medium tracking-wide text-slate-500 uppercase">
              <tr>
                <th scope="col" className="px-5 py-3">
                  Tenant
                </th>
                <th scope="col" className="px-5 py-3">
                  Nombre
                </th>
                <th scope="col" className="px-5 py-3">
                  Categoría
                </th>
                <th scope="col" className="px-5 py-3">
                  Estado
                </th>
                <th scope="col" className="px-5 py-3">
                  Contenido
                </th>
                <th scope="col" className="px-5 py-3 text-right">
                  Acciones
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {templates.data.length === 0 && (
                <tr>
                  <td colSpan={6} className="px-5 py-10 text-center text-slate-500">
                    No hay plantillas.
                  </td>
                </tr>
              )}
              {templates.data.map((template) => (
                <tr key={template.id} data-testid={`template-${template.id}`} className="align-top">
                  <td className="px-5 py-3 whitespace-nowrap text-slate-600">{template.tenant_name}</td>
                  <td className="px-5 py-3 font-mono text-xs font-medium whitespace-nowrap text-slate-900">{template.name}</td>
                  <td className="px-5 py-3 text-xs font-medium text-slate-600">{template.category}</td>
                  <td className="px-5 py-3">
                    <TemplateStatusChip status={template.status} />
                    {template.blocked_by_operator && <p className="mt-1 text-xs font-medium text-rose-700">Bloqueada por el administrador</p>}
                    {template.rejection_reason && (
                      <p className="mt-1 max-w-48 text-xs text-slate-500" data-testid="admin-rejection-reason">
                        {template.rejection_reason}
                      </p>
                    )}
                  </td>
                  <td className="max-w-md px-5 py-3 whitespace-pre-line text-slate-600">{template.body_text}</td>
                  <td className="px-5 py-3">
                    <TemplateActions template={template} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
