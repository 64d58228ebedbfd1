import { z } from 'zod';
import { nodeLabel } from '../node-fields.ts';

export const endData = z.object({ label: nodeLabel });
export type EndData = z.infer<typeof endData>;

export const endDefaults: EndData = { label: 'Fin' };
