import { describe, expect, it } from 'vitest';
import type ExcelJS from 'exceljs';
import { BULK_NO_DATA_ROWS } from '@embudo/contracts/http/bulk-sends';
import { excelFile, largeExcelFile } from '../../../test/support/excel.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import {
  loadedFirstSheet,
  NO_HEADERS,
  readExcelRows,
  streamedFirstSheet,
  UNREADABLE_EXCEL,
  type FirstSheetReader,
  type SheetRow,
} from './excel-sheet.parser.ts';

/** Every row the parser hands over, with the headers it announced (each start begins a new list). */
async function readAll(data: Buffer, fileName = 'clientes.xlsx', readers?: FirstSheetReader[]) {
  let headers: string[] = [];
  let rows: SheetRow[] = [];
  let starts = 0;
  await readExcelRows(
    data,
    fileName,
    (announced) => {
      starts += 1;
      headers = announced;
      rows = [];
      return (row) => rows.push(row);
    },
    readers,
  );
  return { headers, rows, starts };
}

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => (error instanceof AppError ? error.message : error),
  );

describe('the streamed Excel reader', () => {
  it('reads a large file row by row, in order, with the numbers Excel shows', async () => {
    const count = 3_000;
    const data = await largeExcelFile(['telefono', 'Nombre', 'Pedido'], count, (i) => [5215500000000 + i, `Cliente ${i}`, `P-${i}`]);
    const { headers, rows } = await readAll(data);
    expect(headers).toEqual(['telefono', 'Nombre', 'Pedido']);
    expect(rows).toHaveLength(count);
    expect(rows[0]).toEqual({ rowNumber: 2, values: { telefono: '5215500000000', Nombre: 'Cliente 0', Pedido: 'P-0' } });
    expect(rows.at(-1)).toEqual({
      rowNumber: count + 1,
      values: { telefono: String(5215500000000 + count - 1), Nombre: `Cliente ${count - 1}`, Pedido: `P-${count - 1}` },
    });
    expect(rows.every((row, index) => row.rowNumber === index + 2)).toBe(true);
  });

  it('reads what a person sees in each cell (shared strings, rich text, formulas, dates), skips empty rows and keeps the first of repeated headers', async () => {
    const data = await excelFile([
      ['telefono', 'Nombre', 'Fecha', 'Nombre', ''],
      ['5215511111111', { richText: [{ text: 'Ana ' }, { text: 'María' }] }, new Date(Date.UTC(2026, 0, 15)), 'otra', 'x'],
      [],
      ['', '', ''],
      [{ formula: '5215500000000+2', result: 5215500000002 }, 'Luis', null],
    ]);
    const { headers, rows } = await readAll(data);
    expect(headers).toEqual(['telefono', 'Nombre', 'Fecha']);
    expect(rows).toEqual([
      { rowNumber: 2, values: { telefono: '5215511111111', Nombre: 'Ana María', Fecha: '2026-01-15' } },
      { rowNumber: 5, values: { telefono: '5215500000002', Nombre: 'Luis', Fecha: '' } },
    ]);
  });

  it('reads the same cells with the whole-file reader as with the streaming one', async () => {
    const data = await excelFile([
      ['telefono', 'Nombre', 'Fecha'],
      ['5215511111111', { richText: [{ text: 'Ana ' }, { text: 'María' }] }, new Date(Date.UTC(2026, 0, 15))],
      [],
      [{ formula: '5215500000000+2', result: 5215500000002 }, 'Luis', null],
    ]);
    expect(await readAll(data, 'clientes.xlsx', [loadedFirstSheet])).toEqual(await readAll(data, 'clientes.xlsx', [streamedFirstSheet]));
  });

  it('starts over with the next reader when one fails on a valid file, even after it handed over rows', async () => {
    const data = await excelFile([
      ['telefono', 'Nombre'],
      ['5215511111111', 'Ana'],
      ['5215522222222', 'Luis'],
    ]);
    // Fails the way exceljs's streaming reader does now and then, before any row (exceljs issue 3064)…
    const failsAtOnce: FirstSheetReader = async () => {
      throw new TypeError("Cannot read properties of undefined (reading 'sheets')");
    };
    // …or after the header and a first row.
    const failsMidway: FirstSheetReader = async (file) => {
      const rows = [...((await loadedFirstSheet(file)) as Iterable<ExcelJS.Row>)];
      return (function* () {
        yield* rows.slice(0, 2);
        throw new Error('stream broke');
      })();
    };
    const read = await readAll(data, 'clientes.xlsx', [failsAtOnce, failsMidway, streamedFirstSheet]);
    expect(read.starts).toBe(2);
    expect(read.rows.map((row) => row.values.Nombre)).toEqual(['Ana', 'Luis']);
    expect(await refusal(readAll(data, 'clientes.xlsx', [failsAtOnce, failsMidway]))).toBe(UNREADABLE_EXCEL);
  });

  it('refuses a file without headers, without data rows, or that is no workbook', async () => {
    expect(await refusal(readAll(await excelFile([[], ['5215511111111', 'Ana']])))).toBe(NO_HEADERS);
    expect(await refusal(readAll(await excelFile([['telefono', 'Nombre']])))).toBe(BULK_NO_DATA_ROWS);
    const broken = await excelFile([['telefono'], ['5215511111111']]);
    expect(await refusal(readAll(Buffer.concat([broken.subarray(0, 600), Buffer.alloc(600)])))).toBe(UNREADABLE_EXCEL);
  });
});
