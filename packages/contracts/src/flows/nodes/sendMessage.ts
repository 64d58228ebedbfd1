import { z } from 'zod';
import { nodeLabel, nodeText } from '../node-fields.ts';

export const sendMessageData = z.object({ label: nodeLabel, text: nodeText('El mensaje') });
export type SendMessageData = z.infer<typeof sendMessageData>;

export const sendMessageDefaults: SendMessageData = { label: 'Enviar Mensaje', text: '' };
