import { entryBeside, errorOfRefusal, fileRequest, SerialWorker, type RefusalMessage } from '../../../platform/threads/serial-worker.ts';
import { badRequest } from '../../../platform/errors/app-error.ts';
import type { KnowledgeFile } from './knowledge-files.ts';

/** The file's text, or why it cannot be read. */
export type ReadAnswer = { id: number; file: KnowledgeFile } | RefusalMessage;

/** How long one file may take to read before its reader is stopped and the file refused. */
export const KNOWLEDGE_READ_TIMEOUT_MS = 60_000;
export const READ_TOO_SLOW = 'El archivo tardó demasiado en leerse: divídelo en varios archivos más pequeños.';

/**
 * Reads knowledge files (readKnowledgeFile) on a worker thread of their own (`SerialWorker`): parsing a PDF of a few
 * hundred pages, a large workbook or a Word document takes seconds of CPU, and on the server's thread every request
 * and webhook waited for it. A file that takes longer than `timeoutMs` is refused.
 */
export class KnowledgeReader {
  private readonly worker = new SerialWorker<ReadAnswer>({ entry: entryBeside(import.meta.url, 'knowledge-reader-worker'), name: 'knowledge reader' });

  /** How long one file may take to read. */
  constructor(public timeoutMs = KNOWLEDGE_READ_TIMEOUT_MS) {}

  read = (file: { fileName: string; data: Buffer }): Promise<KnowledgeFile> =>
    this.worker.request<KnowledgeFile>(
      (id) => fileRequest(id, file.fileName, file.data),
      (answer, settle) => {
        if ('file' in answer) settle.done(answer.file);
        else settle.fail(errorOfRefusal(answer, 'reading a knowledge file'));
      },
      { timeoutMs: this.timeoutMs, tooSlow: () => badRequest(READ_TOO_SLOW) },
    );

  /** Stops the worker; files still being read fail. */
  stop(): Promise<void> {
    return this.worker.stop();
  }
}
