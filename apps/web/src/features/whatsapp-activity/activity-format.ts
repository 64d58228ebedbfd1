const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** "hace 5 min", "hace 3 h", "hace 2 días"; "Nunca" when nothing came yet. */
export function timeAgo(iso: string | null, now = Date.now()): string {
  if (!iso) return 'Nunca';
  const elapsed = Math.max(0, now - Date.parse(iso));
  if (elapsed < MINUTE) return 'hace menos de un minuto';
  if (elapsed < HOUR) return `hace ${Math.floor(elapsed / MINUTE)} min`;
  if (elapsed < DAY) return `hace ${Math.floor(elapsed / HOUR)} h`;
  const days = Math.floor(elapsed / DAY);
  return `hace ${days} ${days === 1 ? 'día' : 'días'}`;
}

/** A date and time in the browser's zone, short. */
export function shortDateTime(iso: string): string {
  return new Date(iso).toLocaleString('es', { day: '2-digit', month: 'short', hour: '2-digit', minute: '2-digit' });
}

export const refusalLabels = {
  wrong_secret: 'Secreto del webhook incorrecto',
  malformed: 'Entrega malformada',
  unapplied: 'Entrega que no se pudo aplicar',
  refused_sender: 'Remitente que no es un teléfono',
} as const;
