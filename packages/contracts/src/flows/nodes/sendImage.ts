import { z } from 'zod';
import { nodeLabel, nodeText, optionalNodeText } from '../node-fields.ts';

export const sendImageData = z.object({
  label: nodeLabel,
  imageUrl: nodeText('La URL de la imagen', 2048),
  /** Sent as a bearer token when the image sits behind a login. */
  authToken: optionalNodeText('El token', 2048),
  /** Sent instead when the image cannot be fetched. */
  errorMessage: optionalNodeText('El mensaje de error'),
});
export type SendImageData = z.infer<typeof sendImageData>;

/** Write-only: the API answers it masked (see node-secrets.ts). */
export const sendImageSecrets = ['authToken'] as const;

export const sendImageDefaults: SendImageData = { label: 'Enviar Imagen', imageUrl: '', authToken: '', errorMessage: 'No pudimos cargar la imagen.' };
