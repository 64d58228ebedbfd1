import type { TemplateStatus } from '@embudo/contracts/http/templates';

/** Spec 02 §4: PAUSED is shown as pending and FAILED as rejected. */
const views: Record<TemplateStatus, { label: string; className: string }> = {
  APPROVED: { label: 'Aprobada', className: 'bg-emerald-50 text-emerald-700 ring-emerald-600/20' },
  PENDING: { label: 'Pendiente', className: 'bg-amber-50 text-amber-700 ring-amber-600/20' },
  PAUSED: { label: 'Pendiente', className: 'bg-amber-50 text-amber-700 ring-amber-600/20' },
  REJECTED: { label: 'Rechazada', className: 'bg-rose-50 text-rose-700 ring-rose-600/20' },
  FAILED: { label: 'Rechazada', className: 'bg-rose-50 text-rose-700 ring-rose-600/20' },
};

export function TemplateStatusChip({ status }: { status: TemplateStatus | string }) {
  const view = views[status as TemplateStatus] ?? { label: status, className: 'bg-slate-100 text-slate-600 ring-slate-500/20' };
  return (
    <span data-testid="template-status" data-status={status} className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset ${view.className}`}>
      {view.label}
    </span>
  );
}
