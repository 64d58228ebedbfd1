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

const rateFormat = new Intl.NumberFormat('es-ES', { maximumFractionDigits: 1 });
const timeFormat = new Intl.DateTimeFormat('es-ES', { timeStyle: 'short' });
const dayAndTimeFormat = new Intl.DateTimeFormat('es-ES', { dateStyle: 'short', timeStyle: 'short' });

/**
 * Issue 16: a processing batch's pace as the dashboard shows it, e.g. "Ritmo: 80 msg/s · Fin estimado: 14:32" (with the
 * day when it ends on another one); undefined when the server sent none (finished batches).
 */
export function batchPace(batch: Pick<BatchDto, 'status' | 'send_rate' | 'estimated_end_at'>, now = new Date()): string | undefined {
  if (batch.status !== 'processing' || batch.send_rate === undefined) return undefined;
  const rate = `Ritmo: ${rateFormat.format(batch.send_rate)} msg/s`;
  if (!batch.estimated_end_at) return rate;
  const end = new Date(batch.estimated_end_at);
  const sameDay = end.toDateString() === now.toDateString();
  return `${rate} · Fin estimado: ${(sameDay ? timeFormat : dayAndTimeFormat).format(end)}`;
}
