import { z } from 'zod';
import { nodeLabel } from '../node-fields.ts';

export const timerUnits = ['seconds', 'minutes', 'hours', 'days'] as const;
export type TimerUnit = (typeof timerUnits)[number];
export const timerUnitMs: Record<TimerUnit, number> = { seconds: 1_000, minutes: 60_000, hours: 3_600_000, days: 86_400_000 };
/** A wait longer than this is surely a mistake (30 days). */
export const MAX_TIMER_MS = 30 * 86_400_000;
const DURATION_INVALID = 'La duración debe ser un número mayor que 0.';

export const timerData = z
  .object({
    label: nodeLabel,
    duration: z.coerce.number({ error: DURATION_INVALID }).positive({ error: DURATION_INVALID }).default(5),
    unit: z.enum(timerUnits, { error: 'Unidad inválida: usa seconds, minutes, hours o days.' }).default('minutes'),
  })
  .refine((data) => data.duration * timerUnitMs[data.unit] <= MAX_TIMER_MS, { error: 'El temporizador admite como máximo 30 días.', path: ['duration'] });
export type TimerData = z.infer<typeof timerData>;

export const timerDefaults: TimerData = { label: 'Temporizador', duration: 5, unit: 'minutes' };
