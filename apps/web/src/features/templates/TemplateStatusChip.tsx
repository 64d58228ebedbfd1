import type { TemplateStatus } from '@embudo/contracts/http/templates';
import { StatusChip, type StatusTone } from '../../shared/ui/StatusChip.tsx';

/** Spec 02 §4: PAUSED is shown as pending and FAILED as rejected. */
const views: Record<TemplateStatus, { label: string; tone: StatusTone }> = {
  APPROVED: { label: 'Aprobada', tone: 'approved' },
  PENDING: { label: 'Pendiente', tone: 'pending' },
  PAUSED: { label: 'Pendiente', tone: 'pending' },
  REJECTED: { label: 'Rechazada', tone: 'rejected' },
  FAILED: { label: 'Rechazada', tone: 'rejected' },
};

export function TemplateStatusChip({ status }: { status: TemplateStatus | string }) {
  const view = views[status as TemplateStatus] ?? { label: status, tone: 'neutral' };
  return <StatusChip data-testid="template-status" data-status={status} tone={view.tone} label={view.label} />;
}
