import { z } from 'zod';

/** Field schemas the node contracts share, so every node says the same thing about the same kind of field. */
export const MAX_NODE_TEXT = 4096;

export const nodeText = (field: string, max = MAX_NODE_TEXT) =>
  z.string({ error: `${field} debe ser texto.` }).max(max, { error: `${field} admite como máximo ${max} caracteres.` });

export const nodeLabel = nodeText('La etiqueta', 120);

/** An optional text: missing or null is read as empty. */
export const optionalNodeText = (field: string, max = MAX_NODE_TEXT) => nodeText(field, max).nullish().transform((value) => value ?? '');
