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

/**
 * Streams the first worksheet of an .xlsx file: `begin` gets its headers (the first row), and answers what to do with
 * each data row after it, as text by header. Only a bounded window of the file is in memory at any time (exceljs's
 * streaming reader), so a 100,000-row file costs little more than its rows as the caller keeps them. The file is
 * judged by its content, not its name: only a real workbook is read, and an old binary .xls gets its own explanation.
 * Every data row is counted, but at most BULK_MAX_ROWS reach `begin`'s consumer; past it, or with none, the row-count
 * message is thrown once the file is read.
 */
export async function readExcelRows(data: Buffer, fileName: string, begin: (headers: string[]) => RowConsumer): Promise<void> {
  if (!/\.xlsx?$/i.test(fileName)) throw badRequest(EXCEL_FILES_ONLY);
  const detected = await fileTypeFromBuffer(data);
  if (detected?.ext === 'cfb') throw badRequest(OLD_XLS_FORMAT);
  if (detected?.ext !== 'xlsx' && detected?.ext !== 'zip') throw badRequest(EXCEL_FILES_ONLY);

  // Dates need the styles (a date is a number with a date format); links are read as their text.
  const workbook = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([data]), { sharedStrings: 'cache', styles: 'cache', hyperlinks: 'ignore' });
  let sheetRead = false;
  let dataRows = 0;
  try {
    for await (const worksheet of workbook) {
      // The first worksheet of the file is the one read; the others are skipped (exceljs drains them).
      if (sheetRead) continue;
      sheetRead = true;
      let columns: Array<{ index: number; header: string }> | undefined;
      let consume: RowConsumer | undefined;
      for await (const row of worksheet) {
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
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw badRequest(UNREADABLE_EXCEL);
  }
  if (!sheetRead) throw badRequest(UNREADABLE_EXCEL);
  const rowCountProblem = bulkRowCountProblem(dataRows);
  if (rowCountProblem) throw badRequest(rowCountProblem);
}
