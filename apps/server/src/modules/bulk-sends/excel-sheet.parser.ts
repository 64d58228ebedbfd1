import ExcelJS from 'exceljs';
import { fileTypeFromBuffer } from 'file-type';
import { BULK_MAX_ROWS, bulkRowCountProblem, EXCEL_FILES_ONLY } from '@embudo/contracts/http/bulk-sends';
import { badRequest } from '../../platform/errors/app-error.ts';

export const OLD_XLS_FORMAT = 'Este archivo .xls usa el formato antiguo de Excel (97-2003), que no se puede leer: ábrelo en Excel y guárdalo como .xlsx.';
export const UNREADABLE_EXCEL = 'No se pudo leer el archivo Excel: puede estar dañado o protegido con contraseña.';
export const NO_HEADERS = 'La primera fila del archivo debe tener los nombres de las columnas.';

export interface SheetRow {
  /** The row's number as Excel shows it. */
  rowNumber: number;
  /** Cell text by header. */
  values: Record<string, string>;
}

export interface Sheet {
  headers: string[];
  rows: SheetRow[];
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

/**
 * The first worksheet of an .xlsx file as headers (its first row) and rows of text. The file is judged by its
 * content, not its name: only a real workbook is read, and an old binary .xls gets its own explanation.
 */
export async function readExcelSheet(data: Buffer, fileName: string): Promise<Sheet> {
  if (!/\.xlsx?$/i.test(fileName)) throw badRequest(EXCEL_FILES_ONLY);
  const detected = await fileTypeFromBuffer(data);
  if (detected?.ext === 'cfb') throw badRequest(OLD_XLS_FORMAT);
  if (detected?.ext !== 'xlsx' && detected?.ext !== 'zip') throw badRequest(EXCEL_FILES_ONLY);

  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(data as unknown as ExcelJS.Buffer);
  } catch {
    throw badRequest(UNREADABLE_EXCEL);
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) throw badRequest(UNREADABLE_EXCEL);

  // The header row names the columns; a repeated or empty header keeps its first column only.
  const headerRow = sheet.getRow(1);
  const columns: Array<{ index: number; header: string }> = [];
  headerRow.eachCell({ includeEmpty: false }, (cell, index) => {
    const header = cellText(cell.value).trim();
    if (header && !columns.some((column) => column.header === header)) columns.push({ index, header });
  });
  if (columns.length === 0) throw badRequest(NO_HEADERS);

  const rows: SheetRow[] = [];
  let dataRows = 0;
  sheet.eachRow({ includeEmpty: false }, (row, rowNumber) => {
    if (rowNumber === 1) return;
    const values: Record<string, string> = {};
    for (const column of columns) values[column.header] = cellText(row.getCell(column.index).value).trim();
    if (Object.values(values).every((value) => value === '')) return;
    dataRows += 1;
    if (dataRows <= BULK_MAX_ROWS) rows.push({ rowNumber, values });
  });
  const rowCountProblem = bulkRowCountProblem(dataRows);
  if (rowCountProblem) throw badRequest(rowCountProblem);
  return { headers: columns.map((column) => column.header), rows };
}
