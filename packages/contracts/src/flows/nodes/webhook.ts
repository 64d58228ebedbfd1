import { z } from 'zod';
import { nodeLabel, nodeText } from '../node-fields.ts';

export const webhookMethods = ['GET', 'POST'] as const;

export const webhookData = z.object({
  label: nodeLabel,
  url: nodeText('La URL', 2048),
  method: z.enum(webhookMethods, { error: 'Método inválido: usa GET o POST.' }).default('POST'),
  /** JSON text with {{variables}}; sent with POST. */
  body: nodeText('El cuerpo', 20_000).default('{}'),
});
export type WebhookData = z.infer<typeof webhookData>;

export const webhookDefaults: WebhookData = { label: 'Webhook', url: '', method: 'POST', body: '{}' };
