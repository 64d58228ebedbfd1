/**
 * The worker thread that reads knowledge files (knowledge-reader.ts): one request at a time, each answered with the
 * file's text or the reason it cannot be read.
 */
import { parentPort } from 'node:worker_threads';
import { bytesOf, refusalMessage, type FileRequest } from '../../../platform/threads/serial-worker.ts';
import { readKnowledgeFile } from './knowledge-files.ts';
import type { ReadAnswer } from './knowledge-reader.ts';

async function answer(request: FileRequest): Promise<ReadAnswer> {
  try {
    return { id: request.id, file: await readKnowledgeFile({ fileName: request.fileName, data: bytesOf(request) }) };
  } catch (error) {
    return refusalMessage(request.id, error);
  }
}

parentPort!.on('message', (request: FileRequest) => {
  void answer(request).then((answered) => parentPort!.postMessage(answered));
});
