/**
 * How the knowledge search reads Spanish words (docs/decisions/0027): lower case with accents folded, the words that
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

// Longest first: the first ending that leaves a stem of at least 3 letters is taken away.
const ENDINGS = [
  'aciones',
  'iciones',
  'amientos',
  'imientos',
  'amiento',
  'imiento',
  'aremos',
  'eremos',
  'iremos',
  'abamos',
  'iendo',
  'ieron',
  'ando',
  'aron',
  'amos',
  'emos',
  'imos',
  'aban',
  'ados',
  'adas',
  'idos',
  'idas',
  'ciones',
  'cion',
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
  'as',
  'es',
  'os',
  'a',
  'e',
  'o',
  's',
];

/**
 * A light Spanish stem of a folded word: the longest plural or verb ending that leaves at least 3 letters. Crude on
 * purpose: it over-joins a few words ("abril" stays, "abre" → "abr"), which the prefix features and the ranking's
 * weights absorb; a dictionary stemmer would need a dictionary.
 */
export function stem(word: string): string {
  if (word.length <= 3 || /^\d/.test(word)) return word;
  for (const ending of ENDINGS) {
    if (word.endsWith(ending) && word.length - ending.length >= 3) return word.slice(0, -ending.length);
  }
  return word;
}

/** A word's searchable features, each with its weight: its stem, and its first 4 letters for near forms ("hora", "horario"). */
export interface WordFeature {
  feature: string;
  weight: number;
}

/** How much a shared 4-letter start counts next to a shared stem: near words match, exact ones match better. */
export const PREFIX_WEIGHT = 0.5;

/** The content words of a text (folded, no stopwords, 2 letters or more, or any number). */
export function contentWords(text: string): string[] {
  return foldedWords(text).filter((word) => (word.length >= 2 || /\d/.test(word)) && !isStopword(word));
}

export function wordFeatures(word: string): WordFeature[] {
  const features: WordFeature[] = [{ feature: `s:${stem(word)}`, weight: 1 }];
  if (word.length >= 4 && !/^\d/.test(word)) features.push({ feature: `p:${word.slice(0, 4)}`, weight: PREFIX_WEIGHT });
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

/** What a feature weighs: a shared stem counts fully, a shared start of a word only in part. */
export const featureWeight = (feature: string) => (feature.startsWith('p:') ? PREFIX_WEIGHT : 1);
