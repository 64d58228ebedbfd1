import {
  failedRowsFileName,
  FAILED_ROWS_HEADERS,
  sampleHeaders,
  SAMPLE_FILE_NAME,
  type BatchFailureDto,
  type LabelledVariables,
} from '@embudo/contracts/http/bulk-sends';

/** exceljs is large: it loads only when someone opens the bulk-send wizard's file or sample. */
const loadExcel = async () => (await import('exceljs')).default;

export interface ExcelSummary {
  headers: string[];
  /** Rows with any value under the headers. */
  rowCount: number;
}

type CellValue = import('exceljs').CellValue;

function cellText(value: CellValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object' && !(value instanceof Date)) {
    if ('richText' in value) return value.richText.map((part) => part.text).join('');
    if ('result' in value) return cellText(value.result as CellValue);
    if ('text' in value && typeof value.text === 'string') return value.text;
    return '';
  }
  return String(value);
}

/** The first sheet's headers (its first row) and how many rows hold data, so the wizard can map columns. */
export async function readExcelSummary(file: Blob): Promise<ExcelSummary> {
  const ExcelJS = await loadExcel();
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(await file.arrayBuffer());
  const sheet = workbook.worksheets[0];
  if (!sheet) return { headers: [], rowCount: 0 };
  const headers: string[] = [];
  sheet.getRow(1).eachCell({ includeEmpty: false }, (cell) => {
    const header = cellText(cell.value).trim();
    if (header && !headers.includes(header)) headers.push(header);
  });
  let rowCount = 0;
  sheet.eachRow({ includeEmpty: false }, (row, rowNumber) => {
    if (rowNumber > 1 && row.values && (row.values as CellValue[]).some((value) => cellText(value).trim() !== '')) rowCount += 1;
  });
  return { headers, rowCount };
}

/** plantilla_ejemplo.xlsx: telefono and one column per template variable label, with one example row. */
export async function buildSampleWorkbook(schema: LabelledVariables): Promise<ArrayBuffer> {
  const ExcelJS = await loadExcel();
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Contactos');
  const headers = sampleHeaders(schema);
  sheet.addRow(headers);
  sheet.addRow(['5215512345678', ...headers.slice(1).map((label) => `Ejemplo ${label}`)]);
  sheet.getRow(1).font = { bold: true };
  sheet.columns.forEach((column) => {
    column.width = 22;
  });
  // Phones as text, so Excel keeps every digit and shows no exponent.
  sheet.getColumn(1).numFmt = '@';
  return (await workbook.xlsx.writeBuffer()) as ArrayBuffer;
}

function downloadWorkbook(data: ArrayBuffer, fileName: string) {
  const url = URL.createObjectURL(new Blob([data], { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has started the download once click() returns; the next task may free the URL.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

export async function downloadSampleWorkbook(schema: LabelledVariables) {
  downloadWorkbook(await buildSampleWorkbook(schema), SAMPLE_FILE_NAME);
}

/** A batch's failed rows (issue 18): Fila, Teléfono, Nombre, Motivo, Código, one line per row. */
export async function buildFailedRowsWorkbook(rows: readonly BatchFailureDto[]): Promise<ArrayBuffer> {
  const ExcelJS = await loadExcel();
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Fallidos');
  sheet.addRow([...FAILED_ROWS_HEADERS]);
  for (const row of rows) sheet.addRow([row.row_number, row.phone ?? '', row.contact_name ?? '', row.reason, row.code ?? '']);
  sheet.getRow(1).font = { bold: true };
  sheet.columns.forEach((column, index) => {
    column.width = index === 3 ? 60 : 18;
  });
  sheet.getColumn(2).numFmt = '@';
  return (await workbook.xlsx.writeBuffer()) as ArrayBuffer;
}

export async function downloadFailedRowsWorkbook(templateName: string, rows: readonly BatchFailureDto[]) {
  downloadWorkbook(await buildFailedRowsWorkbook(rows), failedRowsFileName(templateName));
}
