import type { Worker } from 'node:worker_threads';
import { moduleWorker } from '../../../platform/threads/module-worker.ts';
import { badRequest } from '../../../platform/errors/app-error.ts';
import type { KnowledgeFile } from './knowledge-files.ts';

export interface ReadRequest {
  id: number;
  fileName: string;
  data: Uint8Array;
}

/** The file's text, or why it cannot be read (`refused`: the 400's message), or how reading it failed. */
export type ReadAnswer = { id: number; file: KnowledgeFile } | { id: number; refused: string | undefined; failed: string };

/** How long one file may take to read before its reader is stopped and the file refused. */
export const KNOWLEDGE_READ_TIMEOUT_MS = 60_000;
export const READ_TOO_SLOW = 'El archivo tardó demasiado en leerse: divídelo en varios archivos más pequeños.';

/**
 * Reads knowledge files (readKnowledgeFile) on a worker thread of their own. Parsing a PDF of a few hundred pages, a
 * large workbook or a Word document takes seconds of CPU, and on the server's thread every request and webhook
 * waited for it. One file at a time, in arrival order; the worker starts with the first file and stays (unref'd, so it
 * never keeps the process alive). A file that takes longer than `timeoutMs` stops the worker (the next file starts a
 * new one) and is refused.
 */
export class KnowledgeReader {
  private worker: Worker | undefined;
  private sequence = 0;
  private readonly pending = new Map<number, { resolve: (file: KnowledgeFile) => void; reject: (error: unknown) => void; timer: NodeJS.Timeout }>();

  /** How long one file may take to read. */
  constructor(public timeoutMs = KNOWLEDGE_READ_TIMEOUT_MS) {}

  read = (file: { fileName: string; data: Buffer }): Promise<KnowledgeFile> => {
    const worker = this.started();
    const id = ++this.sequence;
    return new Promise<KnowledgeFile>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(badRequest(READ_TOO_SLOW));
        void this.stop();
      }, this.timeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      // A copy: the request's buffer stays the caller's.
      worker.postMessage({ id, fileName: file.fileName, data: new Uint8Array(file.data) } satisfies ReadRequest);
    });
  };

  /** Stops the worker; files still being read fail. */
  async stop(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    this.failPending(new Error('knowledge reader stopped'));
    await worker?.terminate();
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = startWorker();
    worker.unref();
    worker.on('message', (answer: ReadAnswer) => {
      const waiting = this.pending.get(answer.id);
      if (!waiting) return;
      this.pending.delete(answer.id);
      clearTimeout(waiting.timer);
      if ('file' in answer) waiting.resolve(answer.file);
      else waiting.reject(answer.refused === undefined ? new Error(`reading a knowledge file failed: ${answer.failed}`) : badRequest(answer.refused));
    });
    const lost = (error: Error) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      this.failPending(error);
    };
    worker.on('error', lost);
    worker.on('exit', (code) => lost(new Error(`knowledge reader exited with ${code}`)));
    this.worker = worker;
    return worker;
  }

  private failPending(error: Error) {
    for (const [id, waiting] of this.pending) {
      clearTimeout(waiting.timer);
      this.pending.delete(id);
      waiting.reject(error);
    }
  }
}

/** The worker's entry beside this file: its JavaScript in the built server, its TypeScript from sources. */
function startWorker(): Worker {
  const extension = import.meta.url.endsWith('.ts') ? 'ts' : 'js';
  return moduleWorker(new URL(`./knowledge-reader-worker.${extension}`, import.meta.url));
}
