import { z } from 'zod';
import { nodeLabel } from '../node-fields.ts';

export const redirectData = z.object({
  label: nodeLabel,
  targetType: z.literal('column', { error: 'Destino inválido: usa column.' }).default('column'),
  /** The column the card moves to. */
  targetId: z.string({ error: 'La columna debe ser un id.' }).nullish().transform((value) => value ?? ''),
});
export type RedirectData = z.infer<typeof redirectData>;

export const redirectDefaults: RedirectData = { label: 'Redirigir', targetType: 'column', targetId: '' };
