import { z } from 'zod';
import { nodeLabel, nodeText } from '../node-fields.ts';

export const scheduleData = z.object({ label: nodeLabel, eventType: nodeText('El tipo de evento', 200) });
export type ScheduleData = z.infer<typeof scheduleData>;

export const scheduleDefaults: ScheduleData = { label: 'Agendar', eventType: 'Cita' };
