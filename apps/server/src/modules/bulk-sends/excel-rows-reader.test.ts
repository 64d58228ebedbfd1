import { afterAll, describe, expect, it } from 'vitest';
import { EXCEL_FILES_ONLY } from '@embudo/contracts/http/bulk-sends';
import { excelFile, largeExcelFile } from '../../../test/support/excel.ts';
import { until } from '../../../test/support/templates.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { EXCEL_TOO_LARGE, ExcelRowsReader } from './excel-rows-reader.ts';
import { readExcelRows, type SheetRow } from './excel-sheet.parser.ts';

const readers: ExcelRowsReader[] = [];
const reader = (options?: ConstructorParameters<typeof ExcelRowsReader>[0]) => {
  const made = new ExcelRowsReader(options);
  readers.push(made);
  return made;
};
afterAll(async () => Promise.all(readers.map((made) => made.stop())));

/** Every row a read hands over, with the headers it announced. */
async function readAll(read: typeof readExcelRows, data: Buffer, fileName = 'clientes.xlsx') {
  let headers: string[] = [];
  const rows: SheetRow[] = [];
  await read(data, fileName, (announced) => {
    headers = announced;
    rows.length = 0;
    return (row) => rows.push(row);
  });
  return { headers, rows };
}

const customers = (count: number) => largeExcelFile(['telefono', 'nombre'], count, (index) => [`52155${String(index).padStart(8, '0')}`, `Cliente ${index}`]);

const refusal = (reading: Promise<unknown>) =>
  reading.then(
    () => undefined,
    (error: unknown) => error,
  );

describe('bulk-send workbooks read on a thread of their own', () => {
  it('answers what reading on the server thread answers: the headers and rows, or the 400 that says why', async () => {
    const off = reader({ readHereUpToBytes: 0 });
    const small = await excelFile([
      ['telefono', 'nombre'],
      ['5215512345678', 'Ana'],
      ['5215587654321', 'Luis'],
    ]);
    const large = await customers(2_500);
    const [first, second] = await Promise.all([readAll(off.read, small), readAll(off.read, large)]);
    expect(first).toEqual(await readAll(readExcelRows, small));
    expect(second).toEqual(await readAll(readExcelRows, large));
    expect(second.rows).toHaveLength(2_500);

    const refused = await refusal(readAll(off.read, Buffer.from('telefono\n5215512345678'), 'clientes.csv'));
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ status: 400, message: EXCEL_FILES_ONLY });
  });

  it('reads a small file on the server thread, with no worker to start, and a larger one in the worker', async () => {
    const here = reader({ readHereUpToBytes: 64 * 1024 });
    const small = await customers(10);
    expect(small.length).toBeLessThan(64 * 1024);
    expect(await readAll(here.read, small)).toEqual(await readAll(readExcelRows, small));
    expect(here.running).toBe(false);
    const large = await customers(5_000);
    expect(large.length).toBeGreaterThan(64 * 1024);
    expect((await readAll(here.read, large)).rows).toHaveLength(5_000);
    expect(here.running).toBe(true);
  });

  it('lets its worker go once idle, so that its memory goes back, and starts one again for the next file', async () => {
    const brief = reader({ idleStopMs: 50, readHereUpToBytes: 0 });
    const small = await customers(3);
    const first = await readAll(brief.read, small);
    expect(first.rows).toHaveLength(3);
    expect(brief.running).toBe(true);
    await until(async () => (brief.running ? undefined : true), 5_000);
    expect(brief.running).toBe(false);
    expect(await readAll(brief.read, small)).toEqual(first);
  });

  it('refuses the workbook when its worker runs out of memory, and the server goes on', async () => {
    // Enough for the worker's isolate to start (Node 24 aborts the whole process when a worker cannot even deserialize
    // its start-up snapshot), too little for 2,500 rows.
    const starved = reader({ maxOldGenerationSizeMb: 16, readHereUpToBytes: 0 });
    const refused = await refusal(readAll(starved.read, await customers(2_500)));
    expect(refused).toMatchObject({ status: 400, message: EXCEL_TOO_LARGE });
  });
});
