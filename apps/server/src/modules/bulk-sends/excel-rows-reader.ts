import { badRequest } from '../../platform/errors/app-error.ts';
import { entryBeside, errorOfRefusal, fileRequest, SerialWorker, type RefusalMessage } from '../../platform/threads/serial-worker.ts';
import { readExcelRows, type RowConsumer, type SheetRow } from './excel-sheet.parser.ts';

/**
 * What the worker answers a file with, in order: its headers (again if a reader starts over), its data rows a
 * thousand at a time, then that it is done; or why the file cannot be read.
 */
export type ExcelRowsMessage = { id: number; headers: string[] } | { id: number; rows: SheetRow[] } | { id: number; done: true } | RefusalMessage;

export const EXCEL_READ_TIMEOUT_MS = 120_000;
export const EXCEL_TOO_SLOW = 'El archivo Excel tardó demasiado en leerse: divídelo en varios archivos más pequeños.';
export const EXCEL_TOO_LARGE = 'El archivo Excel es demasiado grande para leerlo: divídelo en varios archivos más pequeños.';

/**
 * The worker's heap, in MB. Its own small heap is what bounds a large upload's memory: read on the server's thread, a
 * 100,000-row file grew a server on PostgreSQL by 270-320 MB (bench/bulk-excel-memory.bench.ts), V8 sizing the server's
 * heap for the reader's churn; read here, by 120-160 MB (the rows the server keeps, and this worker). A file that
 * needs more (a workbook built to explode when unzipped) ends the worker, not the server, and is refused.
 */
const WORKER_OLD_GENERATION_MB = 128;
const WORKER_YOUNG_GENERATION_MB = 16;
/**
 * Files up to this size (about 2,000 rows) are read on the server's thread, in tens of milliseconds: starting the
 * worker for them (the first file after it went idle) cost more, 0.5 s in the bulk-send bench's 500-row upload.
 */
const READ_HERE_UP_TO_BYTES = 64 * 1024;

/**
 * Reads bulk-send workbooks (readExcelRows) on a worker thread of their own: a 100,000-row file takes seconds of CPU,
 * which on the server's thread held every request and webhook. Same contract as readExcelRows: `begin` gets the
 * headers and answers what to do with each data row, on this thread. Small files are read here.
 */
export class ExcelRowsReader {
  private readonly worker: SerialWorker<ExcelRowsMessage>;
  private readonly timeoutMs: number;
  private readonly readHereUpToBytes: number;

  constructor(options: { maxOldGenerationSizeMb?: number; timeoutMs?: number; idleStopMs?: number; readHereUpToBytes?: number } = {}) {
    this.timeoutMs = options.timeoutMs ?? EXCEL_READ_TIMEOUT_MS;
    this.readHereUpToBytes = options.readHereUpToBytes ?? READ_HERE_UP_TO_BYTES;
    this.worker = new SerialWorker({
      entry: entryBeside(import.meta.url, 'excel-rows-worker'),
      name: 'excel reader',
      idleStopMs: options.idleStopMs,
      workerOptions: {
        resourceLimits: {
          maxOldGenerationSizeMb: options.maxOldGenerationSizeMb ?? WORKER_OLD_GENERATION_MB,
          maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB,
        },
      },
    });
  }

  read = async (data: Buffer, fileName: string, begin: (headers: string[]) => RowConsumer): Promise<void> => {
    if (data.length <= this.readHereUpToBytes) return readExcelRows(data, fileName, begin);
    let consume: RowConsumer | undefined;
    try {
      await this.worker.request<void>(
        (id) => fileRequest(id, fileName, data),
        (message, settle) => {
          try {
            if ('headers' in message) consume = begin(message.headers);
            else if ('rows' in message) message.rows.forEach((row) => consume!(row));
            else if ('done' in message) settle.done();
            else settle.fail(errorOfRefusal(message, 'reading a workbook'));
          } catch (error) {
            settle.fail(error);
          }
        },
        { timeoutMs: this.timeoutMs, tooSlow: () => badRequest(EXCEL_TOO_SLOW) },
      );
    } catch (error) {
      if ((error as { code?: unknown }).code === 'ERR_WORKER_OUT_OF_MEMORY') throw badRequest(EXCEL_TOO_LARGE);
      throw error;
    }
  };

  /** Whether its worker is up (between a file and the end of the idle time after the last one). */
  get running(): boolean {
    return this.worker.running;
  }

  /** Stops the worker; files still being read fail. */
  stop(): Promise<void> {
    return this.worker.stop();
  }
}
