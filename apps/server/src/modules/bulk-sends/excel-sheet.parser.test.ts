import { describe, expect, it } from 'vitest';
import { BULK_NO_DATA_ROWS } from '@embudo/contracts/http/bulk-sends';
import { excelFile, largeExcelFile } from '../../../test/support/excel.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { NO_HEADERS, readExcelRows, UNREADABLE_EXCEL, type SheetRow } from './excel-sheet.parser.ts';

/** Every row the parser hands over, with the headers it announced. */
async function readAll(data: Buffer, fileName = 'clientes.xlsx') {
  let headers: string[] = [];
  const rows: SheetRow[] = [];
  await readExcelRows(data, fileName, (announced) => {
    headers = announced;
    return (row) => rows.push(row);
  });
  return { headers, rows };
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

  it('refuses a file without headers, without data rows, or that is no workbook', async () => {
    expect(await refusal(readAll(await excelFile([[], ['5215511111111', 'Ana']])))).toBe(NO_HEADERS);
    expect(await refusal(readAll(await excelFile([['telefono', 'Nombre']])))).toBe(BULK_NO_DATA_ROWS);
    const broken = await excelFile([['telefono'], ['5215511111111']]);
    expect(await refusal(readAll(Buffer.concat([broken.subarray(0, 600), Buffer.alloc(600)])))).toBe(UNREADABLE_EXCEL);
  });
});
