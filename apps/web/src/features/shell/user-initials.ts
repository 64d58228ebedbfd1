/** Avatar text: first letters of the first two words, or the first two letters of a single word, uppercased. */
export function userInitials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const [first, second] = words;
  if (!first) return '?';
  const letters = second ? [...first].slice(0, 1).concat([...second].slice(0, 1)) : [...first].slice(0, 2);
  return letters.join('').toLocaleUpperCase('es');
}
