import type { ActivityHour } from './whatsapp-activity.api.ts';

const BAR = 10;
const GAP = 2;
const HEIGHT = 64;

const series = [
  { key: 'messages', label: 'Mensajes de clientes', color: '#10b981' },
  { key: 'statuses', label: 'Estados de entrega', color: '#38bdf8' },
  { key: 'refused', label: 'Rechazadas', color: '#f43f5e' },
  { key: 'malformed', label: 'Malformadas', color: '#f59e0b' },
] as const;

const hourLabel = (iso: string) => new Date(iso).toLocaleTimeString('es', { hour: '2-digit', minute: '2-digit' });

/** Webhook deliveries per hour over the last 24 h: one stacked bar per hour, drawn in SVG (no chart library). */
export function DeliveriesChart({ hours }: { hours: ActivityHour[] }) {
  const totals = hours.map((hour) => hour.messages + hour.statuses + hour.refused + hour.malformed);
  const max = Math.max(1, ...totals);
  const sum = totals.reduce((all, total) => all + total, 0);
  const width = hours.length * (BAR + GAP) - GAP;
  return (
    <figure className="space-y-2">
      <svg
        viewBox={`0 0 ${width} ${HEIGHT}`}
        className="h-20 w-full"
        preserveAspectRatio="none"
        role="img"
        aria-label={`Entregas por hora en las últimas 24 horas: ${sum} en total`}
        data-testid="deliveries-chart"
      >
        {hours.map((hour, index) => {
          let top = HEIGHT;
          return (
            <g key={hour.hour} data-testid="deliveries-chart-hour" data-total={totals[index]}>
              <title>{`${hourLabel(hour.hour)}: ${series.map((part) => `${part.label.toLowerCase()} ${hour[part.key]}`).join(', ')}`}</title>
              <rect x={index * (BAR + GAP)} y={0} width={BAR} height={HEIGHT} fill="#f1f5f9" />
              {series.map((part) => {
                const height = (hour[part.key] / max) * HEIGHT;
                top -= height;
                return height > 0 ? <rect key={part.key} x={index * (BAR + GAP)} y={top} width={BAR} height={height} fill={part.color} /> : null;
              })}
            </g>
          );
        })}
      </svg>
      <figcaption className="flex flex-wrap items-center justify-between gap-2 text-xs text-slate-500">
        <span>{hours[0] ? hourLabel(hours[0].hour) : ''}</span>
        <span className="flex flex-wrap gap-3">
          {series.map((part) => (
            <span key={part.key} className="inline-flex items-center gap-1">
              <span className="size-2 rounded-sm" style={{ backgroundColor: part.color }} aria-hidden="true" />
              {part.label}
            </span>
          ))}
        </span>
        <span>Ahora</span>
      </figcaption>
    </figure>
  );
}
