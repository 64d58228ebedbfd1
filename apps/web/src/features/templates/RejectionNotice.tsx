import { OPERATOR_BLOCK_NOTICE, type TemplateDto } from '@embudo/contracts/http/templates';

export const OPERATOR_BLOCK_EDIT_NOTE = 'Guardarla la envía de nuevo a revisión de Meta, pero el bloqueo sigue hasta que el administrador la apruebe.';

/**
 * Why a template cannot be sent: the platform operator's block (which Sincronizar con Meta does not lift) with the
 * operator's reason, or Meta's rejection reason. Nothing when there is neither.
 */
export function RejectionNotice({ template, editing = false }: { template: Pick<TemplateDto, 'rejection_reason' | 'blocked_by_operator'>; editing?: boolean }) {
  if (template.blocked_by_operator) {
    return (
      <div role="note" className="mt-3 rounded-lg bg-rose-50 px-3 py-2 text-xs text-rose-700" data-testid="operator-block">
        <p className="font-semibold">{OPERATOR_BLOCK_NOTICE}</p>
        {template.rejection_reason && (
          <p className="mt-1" data-testid="rejection-reason">
            <span className="font-semibold">Motivo del rechazo:</span> {template.rejection_reason}
          </p>
        )}
        {editing && <p className="mt-1">{OPERATOR_BLOCK_EDIT_NOTE}</p>}
      </div>
    );
  }
  if (!template.rejection_reason) return null;
  return (
    <p className="mt-3 rounded-lg bg-rose-50 px-3 py-2 text-xs text-rose-700" data-testid="rejection-reason">
      <span className="font-semibold">Motivo del rechazo:</span> {template.rejection_reason}
    </p>
  );
}
