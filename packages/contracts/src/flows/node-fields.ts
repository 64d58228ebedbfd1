import { clientId, safeText, TEXT_LIMITS } from '../text.ts';

/** Field schemas the node contracts share, so every node says the same thing about the same kind of field. */
export const MAX_NODE_TEXT: number = TEXT_LIMITS.message;

export const nodeText = (field: string, max = MAX_NODE_TEXT) =>
  safeText(max, { error: `${field} debe ser texto.`, tooLong: `${field} admite como máximo ${max} caracteres.` });

export const nodeLabel = nodeText('La etiqueta', 120);

/** An optional text: missing or null is read as empty. */
/** An id a node refers to (a column, an agent): missing or null is read as empty. */
export const optionalNodeId = (field: string) =>
  nodeText(field, TEXT_LIMITS.id)
    .nullish()
    .transform((value) => value ?? '');

/** An id the editor gives a part of a node (an option, a tool). */
export const nodePartId = (message: string) => clientId(message).min(1, { error: message });

export const optionalNodeText = (field: string, max = MAX_NODE_TEXT) =>
  nodeText(field, max)
    .nullish()
    .transform((value) => value ?? '');
