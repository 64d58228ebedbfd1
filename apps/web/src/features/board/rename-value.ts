/** Spec 01 §5 Renames: kept only when the trimmed value is non-empty and changed; null means "leave it". */
export function renamedValue(input: string | null | undefined, current: string): string | null {
  const trimmed = (input ?? '').trim();
  return trimmed !== '' && trimmed !== current ? trimmed : null;
}
