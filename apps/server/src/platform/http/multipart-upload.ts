import type { FastifyRequest } from 'fastify';
import '@fastify/multipart';
import { TEXT_LIMITS, withoutForbiddenCharacters } from '@embudo/contracts/text';
import { AppError, badRequest } from '../errors/app-error.ts';

/** The largest file any upload route takes (WhatsApp's largest media, a 100 MB document); each route may cap lower. */
export const MAX_UPLOAD_BYTES = 100 * 1024 * 1024;

export const MALFORMED_MULTIPART = 'El formulario multipart está mal formado o incompleto.';

// Control characters, and the folders some clients put before the name.
// eslint-disable-next-line no-control-regex -- finding control characters is this pattern's whole job
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/g;

/**
 * A multipart file name as we may store and show it: without NUL bytes, lone surrogates or control
 * characters, without folders, at most 255 characters; `fallback` when nothing is left.
 */
export function uploadFileName(raw: string | undefined, fallback: string): string {
  const name = withoutForbiddenCharacters(raw ?? '')
    .replace(CONTROL_CHARACTERS, '')
    .split(/[\\/]/)
    .pop()!
    .trim();
  // Cut on a code unit, then drop half a surrogate pair the cut may have left.
  return withoutForbiddenCharacters(name.slice(0, TEXT_LIMITS.fileName)) || fallback;
}

export interface MultipartUpload {
  /** Every text field as sent; the route checks them with its contract. */
  fields: Record<string, string>;
  file?: { data: Buffer; fileName: string };
}

/**
 * Reads a multipart form of text fields and one file (in `fileField`; files in other fields are read and
 * dropped). Every upload route goes through here, so a file over the limit is the route's own message and a
 * broken form (cut short, no boundary, a malformed part header) is a 400, never a 500.
 */
export async function readMultipartUpload(
  request: FastifyRequest,
  options: { fileField: string; maxFileBytes: number; tooLarge: string; fallbackName: string; missingMessage: string },
): Promise<MultipartUpload> {
  if (!request.isMultipart()) throw badRequest(options.missingMessage);
  const upload: MultipartUpload = { fields: {} };
  try {
    for await (const part of request.parts({ limits: { fileSize: options.maxFileBytes, files: 1 } })) {
      if (part.type === 'file') {
        const data = await part.toBuffer();
        if (part.file.truncated) throw badRequest(options.tooLarge);
        if (part.fieldname === options.fileField) upload.file = { data, fileName: uploadFileName(part.filename, options.fallbackName) };
      } else {
        upload.fields[part.fieldname] = String(part.value);
      }
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    const { code, statusCode } = error as { code?: string; statusCode?: number };
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw badRequest(options.tooLarge);
    // Limits (413) keep their status; the parser's own errors (busboy) carry none and mean a broken form.
    if (typeof statusCode === 'number' && statusCode < 500) throw error;
    throw badRequest(MALFORMED_MULTIPART);
  }
  return upload;
}
