import { z } from 'zod';
import { nodeLabel, optionalNodeId } from '../node-fields.ts';

export const redirectData = z.object({
  label: nodeLabel,
  targetType: z.literal('column', { error: 'Destino inválido: usa column.' }).default('column'),
  /** The column the card moves to. */
  targetId: optionalNodeId('La columna'),
});
export type RedirectData = z.infer<typeof redirectData>;

export const redirectDefaults: RedirectData = { label: 'Redirigir', targetType: 'column', targetId: '' };
