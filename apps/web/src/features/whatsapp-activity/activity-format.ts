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

/** The quality ratings as the panel names them ("Calidad del número: Alta"). */
export const qualityLabels = { GREEN: 'Alta', YELLOW: 'Media', RED: 'Baja', UNKNOWN: 'Desconocida' } as const;

export function qualityLabel(quality: keyof typeof qualityLabels | null): string {
  return qualityLabels[quality ?? 'UNKNOWN'];
}

/** 1000 → "1.000": Spanish groups thousands with a dot, four-digit numbers included. */
export function groupedNumber(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, '.');
}

/**
 * "1.000 conversaciones", "sin límite" (a limit the provider reported as unlimited), or "sin datos" when it has said
 * nothing about the number yet.
 */
export function dailyLimitLabel(dailyLimit: number | null, reported: boolean): string {
  if (dailyLimit !== null) return `${groupedNumber(dailyLimit)} ${dailyLimit === 1 ? 'conversación' : 'conversaciones'}`;
  return reported ? 'sin límite' : 'sin datos';
}

/** What Meta did to the number, by the event word it (or Gupshup, relaying it) sent. */
const numberEventLabels: Record<string, string> = {
  FLAGGED: 'Meta marcó el número',
  UNFLAGGED: 'Meta quitó la marca del número',
  UPGRADE: 'Meta subió el límite del número',
  DOWNGRADE: 'Meta bajó el límite del número',
};

/** A date as d/m/aa in the browser's zone: "2/12/26". */
export function shortDate(iso: string): string {
  const date = new Date(iso);
  return `${date.getDate()}/${date.getMonth() + 1}/${String(date.getFullYear() % 100).padStart(2, '0')}`;
}

/** "Meta marcó el número (FLAGGED) el 2/12/26"; an event we have no words for is named as it came. */
export function numberEventLabel(event: string, at: string | null): string {
  const what = numberEventLabels[event] ? `${numberEventLabels[event]} (${event})` : `Aviso de Meta sobre el número: ${event}`;
  return at ? `${what} el ${shortDate(at)}` : what;
}
