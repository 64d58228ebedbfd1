/**
 * The worker thread that reads bulk-send workbooks (excel-rows-reader.ts): one file at a time, each answered with its
 * headers and rows, or the reason it cannot be read.
 */
import { parentPort } from 'node:worker_threads';
import { AppError } from '../../platform/errors/app-error.ts';
import { readExcelRows, type SheetRow } from './excel-sheet.parser.ts';
import type { ExcelRowsMessage, ExcelRowsRequest } from './excel-rows-reader.ts';

const ROWS_PER_MESSAGE = 1_000;

async function read({ id, fileName, data }: ExcelRowsRequest): Promise<void> {
  const post = (message: ExcelRowsMessage) => parentPort!.postMessage(message);
  let rows: SheetRow[] = [];
  const flush = () => {
    if (rows.length > 0) post({ id, rows });
    rows = [];
  };
  try {
    await readExcelRows(Buffer.from(data.buffer, data.byteOffset, data.byteLength), fileName, (headers) => {
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
    post({ id, refused: error instanceof AppError && error.code === 'BAD_REQUEST' ? error.message : undefined, failed: String(error) });
  }
}

// One file at a time: two large files read side by side would need twice the worker's heap.
let reading = Promise.resolve();
parentPort!.on('message', (request: ExcelRowsRequest) => {
  reading = reading.then(() => read(request));
});
