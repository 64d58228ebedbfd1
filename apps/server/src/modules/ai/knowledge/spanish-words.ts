/**
 * How the knowledge search reads Spanish words (docs/decisions/0030): lower case with accents folded, the words that
 * carry no meaning dropped, and a light stem that strips plural and verb endings, so "abren", "abrimos" and "abrir"
 * meet at "abr" where PostgreSQL's Spanish stemmer leaves "abren" and "abrim" apart. The same functions read the
 * passages when they are indexed and the customer's words when they are searched, so both sides always agree.
 */

/** Lower case, accents and ñ folded: "Envío en Año Nuevo" → "envio en ano nuevo". */
export function fold(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();
}

/** The folded words of a text: letters and digits, in order. */
export function foldedWords(text: string): string[] {
  return fold(text).match(/[\p{L}\p{N}]+/gu) ?? [];
}

// Articles, prepositions, pronouns, question words and the commonest verbs: what every passage and question holds.
const STOPWORDS = new Set(
  `a al algo alguna alguno algunos ante antes aqui asi aun bien cada casi como con contra cual cuales cualquier cuando de del
  desde donde dos e el ella ellas ello ellos en entre era eran es esa esas ese eso esos esta estan estar estas este esto estos
  estoy fue fueron ha hace hacen hacer hasta hay he hola la las le les lo los mas me mi mis mucho muy nada ni no nos nosotros
  nuestra nuestras nuestro nuestros o otra otro otros para pero poco por porque puede pueden puedo que quien quienes quiero
  quisiera se sea segun ser si sido sin sobre solo son su sus tambien tan tanto te tener tenemos tengo tiene tienen toda todas
  todo todos tu tus un una unas uno unos usted ustedes va vamos y ya yo buenas buenos buen dia dias gracias favor saber
  informacion pregunta`.split(/\s+/),
);

export function isStopword(word: string): boolean {
  return STOPWORDS.has(word);
}

/** Verb endings that end in "s" (2nd persons, 1st plural), taken before the plural. */
const ENDINGS_WITH_S = ['ariamos', 'eriamos', 'iriamos', 'abamos', 'aremos', 'eremos', 'iremos', 'amos', 'emos', 'imos', 'ais', 'eis', 'aste', 'iste'];
/** Noun, participle, gerund and verb endings, taken after the plural; longest first. */
const ENDINGS = [
  'amiento',
  'imiento',
  'acion',
  'icion',
  'cion',
  'iendo',
  'ieron',
  'ando',
  'aron',
  'aban',
  'ado',
  'ada',
  'ido',
  'ida',
  'aba',
  'ar',
  'er',
  'ir',
  'an',
  'en',
  'a',
  'e',
  'i',
  'o',
];

/**
 * A light Spanish stem of a folded word: a verb ending in "s", else the plural, then the longest noun or verb ending
 * that leaves at least 3 letters ("abren", "abrimos", "abrir" → "abr"; "horario", "horarios" → "horari"). Crude on
 * purpose: it joins a few unrelated words and leaves the future, the conditional and irregular verbs apart (an ending
 * like "-ará" would also cut "repara" from "reparar"), which the sound and prefix features and the ranking's weights
 * absorb; a dictionary stemmer would need a dictionary.
 */
export function stem(word: string): string {
  if (word.length <= 3 || /\d/.test(word)) return word;
  for (const ending of ENDINGS_WITH_S) {
    if (word.endsWith(ending) && word.length - ending.length >= 3) return word.slice(0, -ending.length);
  }
  let singular = word;
  if (word.length > 4 && /[^aeiou]es$/.test(word)) singular = word.slice(0, -2);
  else if (/[aeiou]s$/.test(word)) singular = word.slice(0, -1);
  for (const ending of ENDINGS) {
    if (singular.endsWith(ending) && singular.length - ending.length >= 3) return singular.slice(0, -ending.length);
  }
  return singular;
}

/**
 * A folded word as it sounds in Spanish, so WhatsApp spelling meets the written word: b/v, c/s/z, c/k/qu, g/j before
 * e and i, ll/y and a silent h each become one letter, and doubled letters one ("sierran" and "cierran" → "sieran",
 * "kuesta" and "cuesta" → "kuesta", "yantas" and "llantas" → "yantas").
 */
export function soundOf(word: string): string {
  // Digits stand in for "ch" and a hard "gu" while the other rules run; a word reaching here has no digits.
  return word
    .replace(/ch/g, '0')
    .replace(/h/g, '')
    .replace(/ll/g, 'y')
    .replace(/qu(?=[ei])/g, 'k')
    .replace(/gu(?=[ei])/g, '1')
    .replace(/g(?=[ei])/g, 'j')
    .replace(/c(?=[ei])/g, 's')
    .replace(/[cq]/g, 'k')
    .replace(/z/g, 's')
    .replace(/v/g, 'b')
    .replace(/w/g, 'u')
    .replace(/y(?![aeiou])/g, 'i')
    .replace(/(.)\1+/g, '$1')
    .replace(/0/g, 'ch')
    .replace(/1/g, 'g');
}

/** A word's searchable features: its stem, the stem of its sound, and its first 4 letters for near forms ("hora", "horario"). */
export interface WordFeature {
  feature: string;
  weight: number;
}

/** How much a shared 4-letter start counts next to a shared stem: near words match, exact ones match better. */
export const PREFIX_WEIGHT = 0.5;
/** A shared sound counts besides the stem: a misspelt word finds its word at this weight, a well-spelt one gets both. */
export const SOUND_WEIGHT = 0.5;

/** The content words of a text (folded, no stopwords, 2 letters or more, or any number). */
export function contentWords(text: string): string[] {
  return foldedWords(text).filter((word) => (word.length >= 2 || /\d/.test(word)) && !isStopword(word));
}

export function wordFeatures(word: string): WordFeature[] {
  const features: WordFeature[] = [{ feature: `s:${stem(word)}`, weight: 1 }];
  if (/\d/.test(word)) return features;
  features.push({ feature: `f:${stem(soundOf(word))}`, weight: SOUND_WEIGHT });
  if (word.length >= 4) features.push({ feature: `p:${word.slice(0, 4)}`, weight: PREFIX_WEIGHT });
  return features;
}

/** Every feature of a text with how often it occurs. */
export function featureCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const word of contentWords(text)) {
    for (const { feature } of wordFeatures(word)) counts.set(feature, (counts.get(feature) ?? 0) + 1);
  }
  return counts;
}

const WEIGHTS: Record<string, number> = { s: 1, f: SOUND_WEIGHT, p: PREFIX_WEIGHT };

/** What a feature weighs: a shared stem counts fully, a shared sound or start of a word only in part. */
export const featureWeight = (feature: string) => WEIGHTS[feature[0]!] ?? 1;
