/**
 * The worker thread that reads knowledge files (knowledge-reader.ts): one request at a time, each answered with the
 * file's text or the reason it cannot be read.
 */
import { parentPort } from 'node:worker_threads';
import { AppError } from '../../../platform/errors/app-error.ts';
import { readKnowledgeFile } from './knowledge-files.ts';
import type { ReadAnswer, ReadRequest } from './knowledge-reader.ts';

async function answer({ id, fileName, data }: ReadRequest): Promise<ReadAnswer> {
  try {
    return { id, file: await readKnowledgeFile({ fileName, data: Buffer.from(data.buffer, data.byteOffset, data.byteLength) }) };
  } catch (error) {
    return { id, refused: error instanceof AppError && error.code === 'BAD_REQUEST' ? error.message : undefined, failed: String(error) };
  }
}

parentPort!.on('message', (request: ReadRequest) => {
  void answer(request).then((answered) => parentPort!.postMessage(answered));
});
