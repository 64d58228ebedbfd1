import { z } from 'zod';
import { nodeLabel, optionalNodeId } from '../node-fields.ts';

export const assignToHumanData = z.object({
  label: nodeLabel,
  /** A member of the team, or empty for anyone. */
  agentId: optionalNodeId('El agente'),
});
export type AssignToHumanData = z.infer<typeof assignToHumanData>;

export const assignToHumanDefaults: AssignToHumanData = { label: 'Asignar a Humano', agentId: '' };
