import { z } from 'zod';
import { nodeLabel } from '../node-fields.ts';

export const assignToHumanData = z.object({
  label: nodeLabel,
  /** A member of the team, or empty for anyone. */
  agentId: z.string({ error: 'El agente debe ser un id.' }).nullish().transform((value) => value ?? ''),
});
export type AssignToHumanData = z.infer<typeof assignToHumanData>;

export const assignToHumanDefaults: AssignToHumanData = { label: 'Asignar a Humano', agentId: '' };
