import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { fileTypeFromBuffer } from 'file-type';
import { BULK_MAX_ROWS, bulkRowCountProblem, EXCEL_FILES_ONLY } from '@embudo/contracts/http/bulk-sends';
import { AppError, badRequest } from '../../platform/errors/app-error.ts';

export const OLD_XLS_FORMAT = 'Este archivo .xls usa el formato antiguo de Excel (97-2003), que no se puede leer: ábrelo en Excel y guárdalo como .xlsx.';
export const UNREADABLE_EXCEL = 'No se pudo leer el archivo Excel: puede estar dañado o protegido con contraseña.';
export const NO_HEADERS = 'La primera fila del archivo debe tener los nombres de las columnas.';

export interface SheetRow {
  /** The row's number as Excel shows it. */
  rowNumber: number;
  /** Cell text by header. */
  values: Record<string, string>;
}

/** The text a person sees in a cell, whatever exceljs made of it (rich text, formula result, link, date…). */
function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isInteger(value) ? value.toFixed(0) : String(value);
  if (typeof value === 'string' || typeof value === 'boolean') return String(value);
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if ('richText' in value) return value.richText.map((part) => part.text).join('');
  if ('formula' in value || 'sharedFormula' in value) return 'result' in value && value.result !== undefined ? cellText(value.result as ExcelJS.CellValue) : '';
  if ('text' in value && typeof value.text === 'string') return value.text;
  return '';
}

/** What to do with each data row of the sheet, once its header row is known. */
export type RowConsumer = (row: SheetRow) => void;

/** The rows of a file's first worksheet, as one of exceljs's readers gives them; undefined when the file has no worksheet. */
export type FirstSheetReader = (data: Buffer) => Promise<AsyncIterable<ExcelJS.Row> | Iterable<ExcelJS.Row> | undefined>;

/**
 * exceljs's streaming reader: only a bounded window of the file is in memory at any time. The first worksheet of the
 * file is the one read; the others are skipped (exceljs drains them).
 */
export const streamedFirstSheet: FirstSheetReader = async (data) => {
  // Dates need the styles (a date is a number with a date format); links are read as their text.
  const workbook = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([data]), { sharedStrings: 'cache', styles: 'cache', hyperlinks: 'ignore' });
  const worksheets = workbook[Symbol.asyncIterator]();
  const first = await worksheets.next();
  if (first.done) return undefined;
  return (async function* () {
    yield* first.value;
    // The remaining worksheets must be drained for the reader to finish the file.
    for (let next = await worksheets.next(); !next.done; next = await worksheets.next()) for await (const row of next.value) void row;
  })();
};

/** The whole workbook in memory: the way out when the streaming reader fails on a valid file. */
export const loadedFirstSheet: FirstSheetReader = async (data) => {
  const workbook = new ExcelJS.Workbook();
  // exceljs's own types ask for its Buffer type, which Node's Buffer is.
  await workbook.xlsx.load(data as unknown as ExcelJS.Buffer);
  const worksheet = workbook.worksheets[0];
  if (!worksheet) return undefined;
  const rows: ExcelJS.Row[] = [];
  worksheet.eachRow({ includeEmpty: false }, (row) => void rows.push(row));
  return rows;
};

/**
 * exceljs's streaming reader now and then fails on a valid file (about 1 read in 700 here: "Cannot read properties of
 * undefined (reading 'sheets')", a race inside it, exceljs issue 3064). It is tried again, then the whole-file reader
 * decides; a damaged file fails all three and gets the unreadable-file message.
 */
const READERS: ReadonlyArray<FirstSheetReader> = [streamedFirstSheet, streamedFirstSheet, loadedFirstSheet];

/**
 * Reads the first worksheet of an .xlsx file: `begin` gets its headers (the first row), and answers what to do with
 * each data row after it, as text by header. A 100,000-row file costs little more than its rows as the caller keeps
 * them (the streaming reader). The file is judged by its content, not its name: only a real workbook is read, and an
 * old binary .xls gets its own explanation. Every data row is counted, but at most BULK_MAX_ROWS reach `begin`'s
 * consumer; past it, or with none, the row-count message is thrown once the file is read. When a reader fails and the
 * next one starts over, `begin` is called again: the consumer it answers must start empty.
 */
export async function readExcelRows(
  data: Buffer,
  fileName: string,
  begin: (headers: string[]) => RowConsumer,
  readers: ReadonlyArray<FirstSheetReader> = READERS,
): Promise<void> {
  if (!/\.xlsx?$/i.test(fileName)) throw badRequest(EXCEL_FILES_ONLY);
  const detected = await fileTypeFromBuffer(data);
  if (detected?.ext === 'cfb') throw badRequest(OLD_XLS_FORMAT);
  if (detected?.ext !== 'xlsx' && detected?.ext !== 'zip') throw badRequest(EXCEL_FILES_ONLY);

  for (const read of readers) {
    let dataRows: number;
    try {
      const rows = await read(data);
      if (!rows) throw badRequest(UNREADABLE_EXCEL);
      dataRows = await scanRows(rows, begin);
    } catch (error) {
      if (error instanceof AppError) throw error;
      continue;
    }
    const rowCountProblem = bulkRowCountProblem(dataRows);
    if (rowCountProblem) throw badRequest(rowCountProblem);
    return;
  }
  throw badRequest(UNREADABLE_EXCEL);
}

/** Hands each data row to `begin`'s consumer, as text by header; answers how many data rows the sheet has. */
async function scanRows(rows: AsyncIterable<ExcelJS.Row> | Iterable<ExcelJS.Row>, begin: (headers: string[]) => RowConsumer): Promise<number> {
  let columns: Array<{ index: number; header: string }> | undefined;
  let consume: RowConsumer | undefined;
  let dataRows = 0;
  for await (const row of rows) {
    if (!columns) {
      // The header row names the columns; a repeated or empty header keeps its first column only.
      columns = [];
      if (row.number === 1)
        row.eachCell({ includeEmpty: false }, (cell, index) => {
          const header = cellText(cell.value).trim();
          if (header && !columns!.some((column) => column.header === header)) columns!.push({ index, header });
        });
      if (columns.length === 0) throw badRequest(NO_HEADERS);
      consume = begin(columns.map((column) => column.header));
      if (row.number === 1) continue;
    }
    const values: Record<string, string> = {};
    for (const column of columns) values[column.header] = cellText(row.getCell(column.index).value).trim();
    if (Object.values(values).every((value) => value === '')) continue;
    dataRows += 1;
    if (dataRows <= BULK_MAX_ROWS) consume!({ rowNumber: row.number, values });
  }
  if (!columns) throw badRequest(NO_HEADERS);
  return dataRows;
}
