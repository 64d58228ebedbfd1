import { contentWords, foldedWords, isStopword, soundOf, stem } from '../../knowledge/spanish-words.ts';
import type { AiEmbeddingRequest, AiEmbeddings } from '../model-port.ts';
import { CONCEPTS } from './concept-lexicon.ts';

/**
 * The sandbox model's embeddings (docs/decisions/0030): deterministic, offline, and cheap, so the whole knowledge
 * path (indexing, vectors in the database, hybrid search) runs without a key. Each text becomes a bag of features
 * hashed into a fixed number of dimensions (feature hashing, signed to cancel collisions on average): its words'
 * stems, their first 4 letters and their letter trigrams (near spellings and forms), and the concepts of the
 * lexicon its words belong to (near meanings). Not a language model: it knows only what those features say.
 */
export const SANDBOX_EMBEDDING_MODEL_ID = 'embudo-sandbox-embed-v1';
export const SANDBOX_EMBEDDING_DIMENSIONS = 512;

const WEIGHTS = { stem: 1, sound: 0.5, prefix: 0.5, trigram: 0.2, concept: 3 } as const;

/**
 * What a word is looked up by in the lexicon: the stem of its sound, so forms and misspellings meet; a stem shorter
 * than 4 letters would join unrelated words ("mesa" and "mes"), so a short word is looked up whole, plural or not.
 */
function conceptKey(word: string): string {
  const sound = soundOf(word);
  const key = stem(sound);
  return key.length >= 4 ? key : sound.replace(/(?<=...)s$/, '');
}

/** Lexicon key → the concepts it belongs to. */
const conceptsByKey: ReadonlyMap<string, readonly string[]> = (() => {
  const byKey = new Map<string, string[]>();
  for (const [concept, words] of Object.entries(CONCEPTS)) {
    for (const word of words.split(/\s+/).filter(Boolean)) {
      const key = conceptKey(word);
      const concepts = byKey.get(key) ?? [];
      if (!concepts.includes(concept)) concepts.push(concept);
      byKey.set(key, concepts);
    }
  }
  return byKey;
})();

/** The words the lexicon lists as written. */
const listedWords: ReadonlySet<string> = new Set(Object.values(CONCEPTS).flatMap((words) => words.split(/\s+/).filter(Boolean)));

/**
 * The lexicon's concepts a text's words belong to, each once per word. A stopword counts only when the lexicon lists
 * it as written (question words: "¿dónde?" asks for a place); one that only shares a key with a listed word means
 * nothing ("pero" sounds like "perro", "hacer" stems like "acero").
 */
export function conceptsOf(text: string): string[] {
  return foldedWords(text)
    .filter((word) => !/\d/.test(word) && (!isStopword(word) || listedWords.has(word)))
    .flatMap((word) => conceptsByKey.get(conceptKey(word)) ?? []);
}

/** FNV-1a, 32 bits: the same number for the same feature on every machine. */
function hash(feature: string): number {
  let value = 0x811c9dc5;
  for (let index = 0; index < feature.length; index++) {
    value ^= feature.charCodeAt(index);
    value = Math.imul(value, 0x01000193);
  }
  return value >>> 0;
}

function features(text: string): Map<string, number> {
  const weights = new Map<string, number>();
  const add = (feature: string, weight: number) => weights.set(feature, (weights.get(feature) ?? 0) + weight);
  for (const word of contentWords(text)) {
    add(`s:${stem(word)}`, WEIGHTS.stem);
    if (!/\d/.test(word)) add(`f:${stem(soundOf(word))}`, WEIGHTS.sound);
    if (word.length >= 4) add(`p:${word.slice(0, 4)}`, WEIGHTS.prefix);
    const padded = `_${word}_`;
    for (let index = 0; index + 3 <= padded.length; index++) add(`t:${padded.slice(index, index + 3)}`, WEIGHTS.trigram);
  }
  for (const concept of conceptsOf(text)) add(`c:${concept}`, WEIGHTS.concept);
  return weights;
}

/** A unit vector for the text; the zero vector for a text without words. */
export function sandboxEmbedding(text: string): number[] {
  const vector = new Array<number>(SANDBOX_EMBEDDING_DIMENSIONS).fill(0);
  for (const [feature, weight] of features(text)) {
    const bits = hash(feature);
    // A repeated feature grows slowly: a passage that says "envío" five times is not five times about shipping.
    vector[bits % SANDBOX_EMBEDDING_DIMENSIONS]! += (bits & 0x80000000 ? -1 : 1) * Math.sqrt(weight);
  }
  const norm = Math.hypot(...vector);
  return norm > 0 ? vector.map((value) => value / norm) : vector;
}

/** The sandbox model's `embed`: the same vector for a document and a query (the features already say what matters). */
export function sandboxEmbed(request: AiEmbeddingRequest): Promise<AiEmbeddings> {
  if (request.signal?.aborted) return Promise.reject(request.signal.reason as Error);
  const inputTokens = request.texts.reduce((sum, text) => sum + Math.ceil(text.length / 4), 0);
  return Promise.resolve({ model: SANDBOX_EMBEDDING_MODEL_ID, vectors: request.texts.map(sandboxEmbedding), usage: { inputTokens } });
}

export function cosineSimilarity(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let index = 0; index < Math.min(a.length, b.length); index++) {
    dot += a[index]! * b[index]!;
    normA += a[index]! ** 2;
    normB += b[index]! ** 2;
  }
  return normA > 0 && normB > 0 ? dot / Math.sqrt(normA * normB) : 0;
}

/** The stems, 4-letter starts and concepts of a text's words: what two texts must share to be about the same thing. */
function meaningOf(text: string): Set<string> {
  const meaning = new Set<string>(conceptsOf(text).map((concept) => `c:${concept}`));
  for (const word of contentWords(text)) {
    meaning.add(`s:${stem(word)}`);
    if (word.length >= 4) meaning.add(`p:${word.slice(0, 4)}`);
  }
  return meaning;
}

/** Whether two texts share a word (by its stem or its first 4 letters) or a concept of the lexicon. */
export function sharesMeaning(a: string, b: string): boolean {
  const ofA = meaningOf(a);
  return [...meaningOf(b)].some((item) => ofA.has(item));
}
