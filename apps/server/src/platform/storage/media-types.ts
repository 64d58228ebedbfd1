/**
 * The extension a stored file gets from its MIME type: a fixed, short list, so a provider's content type
 * never makes a file name (`application/vnd.android.package-archive` once gave a 24-letter extension the
 * media route refused). Anything else is stored as `.bin`.
 */
const EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'audio/ogg': 'ogg',
  'audio/opus': 'opus',
  'audio/mpeg': 'mp3',
  'audio/mp4': 'm4a',
  'audio/x-m4a': 'm4a',
  'audio/aac': 'aac',
  'audio/amr': 'amr',
  'video/mp4': 'mp4',
  'video/3gpp': '3gp',
  'application/pdf': 'pdf',
  'application/msword': 'doc',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.ms-excel': 'xls',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'application/vnd.ms-powerpoint': 'ppt',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'pptx',
  'text/plain': 'txt',
  'text/csv': 'csv',
  'application/zip': 'zip',
};

export const FALLBACK_EXTENSION = 'bin';

/** The extension of a known MIME type (parameters and case ignored), or undefined. */
export function extensionForMime(mime: string | undefined): string | undefined {
  const essence = mime?.split(';')[0]?.trim().toLowerCase();
  return essence ? EXTENSIONS[essence] : undefined;
}
