/**
 * The worker thread that reads bulk-send workbooks (excel-rows-reader.ts): one file at a time, each answered with its
 * headers and rows, or the reason it cannot be read.
 */
import { parentPort } from 'node:worker_threads';
import { bytesOf, refusalMessage, type FileRequest } from '../../platform/threads/serial-worker.ts';
import { readExcelRows, type SheetRow } from './excel-sheet.parser.ts';
import type { ExcelRowsMessage } from './excel-rows-reader.ts';

const ROWS_PER_MESSAGE = 1_000;

async function read(request: FileRequest): Promise<void> {
  const { id } = request;
  const post = (message: ExcelRowsMessage) => parentPort!.postMessage(message);
  let rows: SheetRow[] = [];
  const flush = () => {
    if (rows.length > 0) post({ id, rows });
    rows = [];
  };
  try {
    await readExcelRows(bytesOf(request), request.fileName, (headers) => {
      // A reader starting over after a failure: its rows go to the consumer that these headers begin.
      rows = [];
      post({ id, headers });
      return (row) => {
        rows.push(row);
        if (rows.length >= ROWS_PER_MESSAGE) flush();
      };
    });
    flush();
    post({ id, done: true });
  } catch (error) {
    post(refusalMessage(id, error));
  }
}

// One file at a time: two large files read side by side would need twice the worker's heap.
let reading = Promise.resolve();
parentPort!.on('message', (request: FileRequest) => {
  reading = reading.then(() => read(request));
});
