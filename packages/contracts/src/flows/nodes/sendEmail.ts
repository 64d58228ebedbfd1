import { z } from 'zod';
import { nodeLabel, nodeText } from '../node-fields.ts';

export const sendEmailData = z.object({
  label: nodeLabel,
  to: nodeText('El destinatario', 320),
  subject: nodeText('El asunto', 300),
  body: nodeText('El cuerpo del correo', 20_000),
});
export type SendEmailData = z.infer<typeof sendEmailData>;

export const sendEmailDefaults: SendEmailData = { label: 'Enviar Email', to: '', subject: '', body: '' };
