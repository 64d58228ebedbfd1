/** Passages of at most this many characters: several fit in the assistant's knowledge budget, each says one thing. */
export const CHUNK_CHARS = 800;
/**
 * How much of a passage's end the next one repeats: a fact cut at a passage's border is still whole in one of them.
 * About two sentences.
 */
export const CHUNK_OVERLAP_CHARS = 160;

/**
 * Lines; a line longer than `room` cut at sentence ends, and a sentence longer than it at word boundaries. `room`
 * leaves space for the overlap, so a passage always has it.
 */
function pieces(text: string, room: number): string[] {
  return text
    .split(/\n+/)
    .flatMap((line) => (line.length <= room ? [line] : line.split(/(?<=[.!?;])\s+/)))
    .map((piece) => piece.trim())
    .filter(Boolean)
    .flatMap((piece) => (piece.length <= room ? [piece] : cutAtWords(piece, room)));
}

function cutAtWords(text: string, size: number): string[] {
  const parts: string[] = [];
  let rest = text;
  while (rest.length > size) {
    const space = rest.lastIndexOf(' ', size);
    const end = space > size / 2 ? space : size;
    parts.push(rest.slice(0, end).trim());
    rest = rest.slice(end).trim();
  }
  if (rest) parts.push(rest);
  return parts;
}

/** The end of a passage the next one starts with: whole pieces from the end, or the tail of a long last piece from a word start. */
function overlapOf(passage: string[], overlap: number): string[] {
  const kept: string[] = [];
  let length = 0;
  for (let index = passage.length - 1; index >= 0; index--) {
    const piece = passage[index]!;
    if (length + piece.length + 1 > overlap) {
      if (kept.length === 0) {
        const tail = piece.slice(-overlap);
        const wordStart = tail.indexOf(' ');
        if (wordStart >= 0 && wordStart < tail.length - 1) kept.unshift(tail.slice(wordStart + 1));
      }
      break;
    }
    kept.unshift(piece);
    length += piece.length + 1;
  }
  return kept;
}

/**
 * A line that names the section below it: a Markdown heading, a short line in capitals, or a short line ending in a
 * colon ("Hoja Precios:", "Envíos nacionales:").
 */
export function isHeading(line: string): boolean {
  if (line.length > 80) return false;
  if (/^#{1,6}\s/.test(line) || /:$/.test(line)) return true;
  const letters = line.replace(/[^\p{L}]/gu, '');
  return letters.length >= 4 && letters === letters.toUpperCase() && letters !== letters.toLowerCase();
}

/**
 * Splits text into passages of at most `size` characters at line, sentence or word boundaries, each starting with
 * the last `overlap` characters or so of the one before (whole lines or sentences where they fit). A passage that
 * starts inside a section begins with the section's heading line, so it says what it is about ("TALLER" above
 * "Sábados: 9:00 a 15:00").
 */
export function chunkText(text: string, size = CHUNK_CHARS, overlap = CHUNK_OVERLAP_CHARS): string[] {
  const chunks: string[] = [];
  let current: string[] = [];
  let length = 0;
  let fresh = 0; // pieces of `current` not carried over from the passage before
  let heading: string | undefined;
  for (const piece of pieces(text, size - overlap - 1)) {
    if (current.length > 0 && length + piece.length + 1 > size) {
      chunks.push(current.join('\n'));
      current = overlapOf(current, overlap);
      // The section's heading first, when the passage does not already start with it and it fits beside the overlap.
      if (heading && !isHeading(piece) && current[0] !== heading) current.unshift(heading);
      length = current.reduce((sum, kept) => sum + kept.length + 1, 0);
      // A carried-over end that leaves no room for the next piece is dropped rather than cut.
      while (current.length > 0 && length + piece.length + 1 > size) {
        const dropped = current.splice(current[0] === heading ? 1 : 0, 1)[0] ?? current.shift()!;
        length -= dropped.length + 1;
      }
      fresh = 0;
    }
    if (isHeading(piece)) heading = piece;
    current.push(piece);
    length += piece.length + 1;
    fresh++;
  }
  if (fresh > 0) chunks.push(current.join('\n'));
  return chunks;
}

/**
 * A passage as the search reads it: after its file's name in words ("politica-de-envios.md" → "politica de envios"),
 * which says what every passage of the file is about. The excerpts keep the passage's own text.
 */
export function searchableText(fileName: string, text: string): string {
  const title = fileName.replace(/\.[^.]+$/, '').replace(/[-_.]+/g, ' ');
  return `${title}\n${text}`;
}
