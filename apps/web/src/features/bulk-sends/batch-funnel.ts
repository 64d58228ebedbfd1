import type { BatchDto, BatchStatus } from '@embudo/contracts/http/bulk-sends';
import type { StatusTone } from '../../shared/ui/StatusChip.tsx';

/** A share as a whole percentage; a dash when there is nothing to divide by yet. */
export function percent(part: number, whole: number): string {
  return whole > 0 ? `${Math.round((part / whole) * 100)}%` : '—';
}

/** Spec 02 §9: sent over total, delivered over sent, read over delivered, replied over sent. */
export function batchFunnel(batch: Pick<BatchDto, 'total_messages' | 'sent_count' | 'delivered_count' | 'read_count' | 'replied_count'>) {
  return {
    sent: percent(batch.sent_count, batch.total_messages),
    delivered: percent(batch.delivered_count, batch.sent_count),
    read: percent(batch.read_count, batch.delivered_count),
    replied: percent(batch.replied_count, batch.sent_count),
  };
}

/** Spec 02 §4: completed shown as approved, processing as pending, failed as rejected. */
export const batchStatusViews: Record<BatchStatus, { label: string; tone: StatusTone }> = {
  completed: { label: 'Completado', tone: 'approved' },
  processing: { label: 'Procesando', tone: 'pending' },
  failed: { label: 'Fallido', tone: 'rejected' },
};
