import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDocumentProxy } from 'unpdf';
import { TOOL_FILE_EXTENSIONS } from '@embudo/contracts/http/funnels';
import { KnowledgeReader } from '../../src/modules/ai/index.ts';
import { loadEvalDocuments, loadEvalQuestions, QUESTION_KINDS, type QuestionKind } from '../../../../bench/knowledge-eval/dataset.ts';

/**
 * The knowledge evaluation set holds what issue 44 asks of it, so a retrieval bench built on it measures what it claims:
 * enough documents of enough kinds, a long PDF split into many passages, enough questions of each hard kind, and every
 * expected fact present in its document as the product reads that file (CSV and XLSX rows become "header: value"
 * sentences, the PDF is read by unpdf), never handed to the retrieval by the question itself.
 */

/** The kinds that test more than word matching, each with at least this many questions. */
const HARD_KIND_MINIMUM: Partial<Record<QuestionKind, number>> = { 'verb-form': 12, synonym: 12, typo: 12, 'no-shared-word': 12 };
const MIN_DOCUMENTS = 8;
const MIN_FORMATS = 6;
const MIN_QUESTIONS = 100;
const MIN_PDF_PAGES = 15;
const MIN_PDF_QUESTIONS = 20;
const MIN_QUESTIONS_PER_DOCUMENT = 8;

const documents = loadEvalDocuments();
const questions = loadEvalQuestions();
const extensionOf = (fileName: string) => fileName.toLowerCase().split('.').pop() ?? '';
const pdfs = documents.filter((document) => extensionOf(document.fileName) === 'pdf');

describe('knowledge evaluation set', () => {
  const reader = new KnowledgeReader();
  const textOf = new Map<string, string>();

  beforeAll(async () => {
    for (const document of documents) textOf.set(document.fileName, (await reader.read(document)).text);
  });
  afterAll(() => reader.stop());

  it(`has at least ${MIN_DOCUMENTS} documents in at least ${MIN_FORMATS} formats the product accepts`, () => {
    expect(documents.length).toBeGreaterThanOrEqual(MIN_DOCUMENTS);
    const formats = new Set(documents.map((document) => extensionOf(document.fileName)));
    expect([...formats].filter((format) => !(TOOL_FILE_EXTENSIONS as readonly string[]).includes(format))).toEqual([]);
    expect(formats.size).toBeGreaterThanOrEqual(MIN_FORMATS);
  });

  it(`has a PDF of at least ${MIN_PDF_PAGES} pages`, async () => {
    const pageCounts = await Promise.all(pdfs.map(async (pdf) => (await getDocumentProxy(new Uint8Array(pdf.data))).numPages));
    expect(Math.max(0, ...pageCounts)).toBeGreaterThanOrEqual(MIN_PDF_PAGES);
  });

  it(`has at least ${MIN_QUESTIONS} questions with distinct ids, each about one of the documents`, () => {
    expect(questions.length).toBeGreaterThanOrEqual(MIN_QUESTIONS);
    expect(new Set(questions.map((question) => question.id)).size).toBe(questions.length);
    const fileNames = new Set(documents.map((document) => document.fileName));
    expect(questions.filter((question) => !fileNames.has(question.document)).map((question) => question.id)).toEqual([]);
  });

  it('covers every kind, the hard kinds with their minimum', () => {
    const counts = new Map<QuestionKind, number>();
    for (const question of questions) counts.set(question.kind, (counts.get(question.kind) ?? 0) + 1);
    for (const kind of QUESTION_KINDS) expect(counts.get(kind) ?? 0, kind).toBeGreaterThanOrEqual(HARD_KIND_MINIMUM[kind] ?? 1);
  });

  it(`asks about every document, and at least ${MIN_PDF_QUESTIONS} times about the long PDF`, () => {
    for (const document of documents) {
      const asked = questions.filter((question) => question.document === document.fileName).length;
      expect(asked, document.fileName).toBeGreaterThanOrEqual(extensionOf(document.fileName) === 'pdf' ? MIN_PDF_QUESTIONS : MIN_QUESTIONS_PER_DOCUMENT);
    }
  });

  it("finds each expected fact in its document's text as the product reads the file", () => {
    const missing = questions.filter((question) => !textOf.get(question.document)?.includes(question.expect));
    expect(missing.map((question) => `${question.id}: ${question.expect}`)).toEqual([]);
  });

  it('finds each expected fact in no other document, so a passage of another file cannot pass for the answer', () => {
    const ambiguous = questions.filter((question) => [...textOf].some(([fileName, text]) => fileName !== question.document && text.includes(question.expect)));
    expect(ambiguous.map((question) => `${question.id}: ${question.expect}`)).toEqual([]);
  });

  it('never puts the expected fact in the question itself, except in direct questions', () => {
    const giveaways = questions.filter((question) => question.kind !== 'direct' && question.question.toLowerCase().includes(question.expect.toLowerCase()));
    expect(giveaways.map((question) => question.id)).toEqual([]);
  });
});
