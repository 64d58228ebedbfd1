/**
 * The knowledge evaluation set (issue 44 item 3): the documents of one fictional small business (a bike shop with a
 * workshop and a café in Guadalajara) in the formats the column assistant accepts, and the customers' questions, each
 * with the document it is about and a short exact piece of that document's text the answer needs (`expect`). A
 * retrieval bench indexes the documents, asks each question, and counts a hit when a returned passage of the named
 * document contains `expect`. See README.md beside this file for how the set was written.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** What each question tests, as its author labelled it (README.md explains each kind). */
export const QUESTION_KINDS = ['verb-form', 'plural', 'synonym', 'typo', 'no-shared-word', 'direct', 'multi-word'] as const;
export type QuestionKind = (typeof QUESTION_KINDS)[number];

export interface EvalDocument {
  fileName: string;
  data: Buffer;
}

export interface EvalQuestion {
  id: string;
  question: string;
  /** The file name of the document that answers it. */
  document: string;
  /** A short exact substring of the document's text as the product reads it: the fact the answer needs. */
  expect: string;
  kind: QuestionKind;
}

const here = path.dirname(fileURLToPath(import.meta.url));
export const DOCUMENTS_DIR = path.join(here, 'documents');
const QUESTIONS_FILE = path.join(here, 'questions.json');

/** Every document of the set, sorted by file name. */
export function loadEvalDocuments(): EvalDocument[] {
  return fs
    .readdirSync(DOCUMENTS_DIR)
    .sort()
    .map((fileName) => ({ fileName, data: fs.readFileSync(path.join(DOCUMENTS_DIR, fileName)) }));
}

/** Every question of the set; a malformed entry fails here, naming it, rather than skewing a bench's figures. */
export function loadEvalQuestions(): EvalQuestion[] {
  const parsed: unknown = JSON.parse(fs.readFileSync(QUESTIONS_FILE, 'utf8'));
  if (!Array.isArray(parsed)) throw new Error(`${QUESTIONS_FILE} must hold an array of questions`);
  return parsed.map((entry: unknown, index) => {
    const question = entry as Partial<Record<keyof EvalQuestion, unknown>>;
    const fields = ['id', 'question', 'document', 'expect', 'kind'] as const;
    for (const field of fields) {
      if (typeof question[field] !== 'string' || question[field] === '')
        throw new Error(`Question ${index} of ${QUESTIONS_FILE}: "${field}" must be a non-empty string`);
    }
    if (!QUESTION_KINDS.includes(question.kind as QuestionKind)) throw new Error(`Question ${String(question.id)}: unknown kind "${String(question.kind)}"`);
    return question as EvalQuestion;
  });
}
