import { z } from 'zod';
import { nodeLabel, optionalNodeId } from '../node-fields.ts';

/** Spec 02 §9: on_message_received (default) or on_column_entry, which needs a column. */
export const triggerTypes = ['on_message_received', 'on_column_entry'] as const;
export type TriggerType = (typeof triggerTypes)[number];
export const TRIGGER_COLUMN_REQUIRED = 'El disparador «Al entrar a una columna» necesita una columna.';

export const triggerData = z
  .object({
    label: nodeLabel,
    triggerType: z.enum(triggerTypes, { error: 'Tipo de disparador inválido: usa on_message_received u on_column_entry.' }).default('on_message_received'),
    columnId: optionalNodeId('La columna'),
  })
  .refine((data) => data.triggerType !== 'on_column_entry' || data.columnId !== '', { error: TRIGGER_COLUMN_REQUIRED, path: ['columnId'] });
export type TriggerData = z.infer<typeof triggerData>;

export const triggerDefaults: TriggerData = { label: 'Disparador', triggerType: 'on_message_received', columnId: '' };
