import { TEXT_LIMITS, withoutForbiddenCharacters } from '@embudo/contracts/text';

// Control characters, and the folders some clients put before the name.
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/g;

/**
 * A multipart file name as we may store and show it: without NUL bytes, lone surrogates or control
 * characters, without folders, at most 255 characters; `fallback` when nothing is left.
 */
export function uploadFileName(raw: string | undefined, fallback: string): string {
  const name = withoutForbiddenCharacters(raw ?? '').replace(CONTROL_CHARACTERS, '').split(/[\\/]/).pop()!.trim();
  // Cut on a code unit, then drop half a surrogate pair the cut may have left.
  return withoutForbiddenCharacters(name.slice(0, TEXT_LIMITS.fileName)) || fallback;
}
