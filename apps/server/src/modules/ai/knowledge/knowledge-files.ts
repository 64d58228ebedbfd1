import ExcelJS from 'exceljs';
import { fileTypeFromBuffer } from 'file-type';
import mammoth from 'mammoth';
import { extractText, getDocumentProxy } from 'unpdf';
import { TOOL_FILE_EXTENSIONS, TOOL_FILE_REFUSED, type ToolFileExtension } from '@embudo/contracts/http/funnels';
import { AppError, badRequest } from '../../../platform/errors/app-error.ts';

/** Text kept from one file at most (about 500 passages); a longer file is refused with the reason. */
export const MAX_KNOWLEDGE_CHARS = 500_000;
/** What a DOCX or XLSX (a zip) may unpack to, read from its directory before any parser opens it. */
export const MAX_UNZIPPED_BYTES = 50 * 1024 * 1024;
export const MAX_PDF_PAGES = 500;

export const NOT_UTF8_TEXT = 'El archivo no es texto UTF-8: guárdalo como texto (UTF-8) o súbelo como PDF, DOCX o XLSX.';
export const INVALID_JSON = 'El archivo JSON no es válido.';
export const NOT_A_PDF = 'El archivo no es un PDF válido: puede estar dañado.';
export const PDF_PROTECTED = 'El PDF está protegido con contraseña: quítasela y súbelo de nuevo.';
export const PDF_TOO_LONG = `El PDF tiene más de ${MAX_PDF_PAGES} páginas: divídelo en varios archivos.`;
export const PDF_WITHOUT_TEXT = 'El PDF no tiene texto que se pueda leer (parece una imagen escaneada): súbelo con texto seleccionable o como TXT.';
export const OLD_WORD = 'Este archivo usa el formato antiguo de Word (.doc) o está protegido con contraseña: ábrelo en Word y guárdalo como .docx.';
export const UNREADABLE_WORD = 'No se pudo leer el documento Word: puede estar dañado. Ábrelo en Word y guárdalo de nuevo como .docx.';
export const OLD_EXCEL = 'Este archivo usa el formato antiguo de Excel (.xls) o está protegido con contraseña: ábrelo en Excel y guárdalo como .xlsx.';
export const UNREADABLE_EXCEL = 'No se pudo leer el archivo Excel: puede estar dañado.';
export const ZIP_TOO_LARGE = `El archivo se descomprime en más de ${MAX_UNZIPPED_BYTES / 1024 / 1024} MB: divídelo en varios archivos.`;
export const NO_TEXT = 'El archivo no tiene texto que el asistente pueda leer.';
export const TOO_MUCH_TEXT = `El archivo tiene más de ${MAX_KNOWLEDGE_CHARS.toLocaleString('es')} caracteres de texto: divídelo en varios archivos.`;
const mismatch = (extension: string) => `El archivo no es un ${extension.toUpperCase()} válido: su contenido no corresponde a su extensión.`;

export interface KnowledgeFile {
  extension: ToolFileExtension;
  /** The file's words as the assistant reads them. */
  text: string;
}

/**
 * A column assistant's knowledge file, judged by its content and read with a real parser per format (issue 15 item 3):
 * PDF (unpdf), DOCX (mammoth), XLSX (exceljs), and CSV, TXT, JSON, MD as UTF-8 text. A file that cannot be read is a
 * 400 whose message says why, so the Configurar Bot Gemini dialog can tell the person what to do.
 */
export async function readKnowledgeFile(file: { fileName: string; data: Buffer }): Promise<KnowledgeFile> {
  const extension = file.fileName.toLowerCase().split('.').pop() ?? '';
  const detected = (await fileTypeFromBuffer(file.data))?.ext;
  if (extension === 'doc' || (extension === 'docx' && detected === 'cfb')) throw badRequest(OLD_WORD);
  if (extension === 'xls' || (extension === 'xlsx' && detected === 'cfb')) throw badRequest(OLD_EXCEL);
  const kind = TOOL_FILE_EXTENSIONS.find((candidate) => candidate === extension);
  if (!kind) throw badRequest(TOOL_FILE_REFUSED);
  const text = normalised(await textOf(kind, file.data, detected));
  if (!text.trim()) throw badRequest(kind === 'pdf' ? PDF_WITHOUT_TEXT : NO_TEXT);
  if (text.length > MAX_KNOWLEDGE_CHARS) throw badRequest(TOO_MUCH_TEXT);
  return { extension: kind, text };
}

async function textOf(kind: ToolFileExtension, data: Buffer, detected: string | undefined): Promise<string> {
  switch (kind) {
    case 'pdf':
      if (detected !== 'pdf') throw badRequest(mismatch(kind));
      return pdfText(data);
    case 'docx':
      if (detected !== 'docx' && detected !== 'zip') throw badRequest(mismatch(kind));
      checkUnzippedSize(data);
      return docxText(data);
    case 'xlsx':
      if (detected !== 'xlsx' && detected !== 'zip') throw badRequest(mismatch(kind));
      checkUnzippedSize(data);
      return xlsxText(data);
    case 'csv':
    case 'txt':
    case 'md':
    case 'json': {
      if (detected) throw badRequest(mismatch(kind));
      const text = utf8Text(data);
      if (kind === 'csv') return csvText(text);
      if (kind === 'json') return jsonText(text);
      return text;
    }
  }
}

function normalised(text: string) {
  return text
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n')
    .replaceAll('\u0000', '');
}

function utf8Text(data: Buffer): string {
  if (data.subarray(0, 64 * 1024).includes(0)) throw badRequest(NOT_UTF8_TEXT);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(data);
  } catch {
    throw badRequest(NOT_UTF8_TEXT);
  }
}

/** A JSON file as text; one written on a single line is laid out so it splits into passages. */
function jsonText(text: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    throw badRequest(INVALID_JSON);
  }
  return text.includes('\n') ? text : JSON.stringify(parsed, null, 1);
}

/** Splits one CSV line at commas or semicolons outside double quotes. */
function csvCells(line: string): string[] {
  const cells: string[] = [];
  let current = '';
  let quoted = false;
  for (let index = 0; index < line.length; index++) {
    const char = line[index]!;
    if (char === '"') {
      if (quoted && line[index + 1] === '"') {
        current += '"';
        index++;
      } else quoted = !quoted;
    } else if (!quoted && (char === ',' || char === ';')) {
      cells.push(current.trim());
      current = '';
    } else current += char;
  }
  cells.push(current.trim());
  return cells;
}

/** Each row with its header's names ("producto: taladro, precio: 1200."), so a passage about one row says what each value is. */
function rowsAsSentences(header: string[], rows: string[][]): string[] {
  return rows
    .filter((row) => row.some((value) => value !== ''))
    .map(
      (row) =>
        row
          .map((value, index) => (value === '' ? undefined : `${header[index] || `columna ${index + 1}`}: ${value}`))
          .filter(Boolean)
          .join(', ') + '.',
    );
}

export function csvText(text: string): string {
  const lines = normalised(text)
    .split('\n')
    .filter((line) => line.trim() !== '');
  const [header, ...rows] = lines;
  if (!header || rows.length === 0) return lines.join('\n');
  return rowsAsSentences(csvCells(header), rows.map(csvCells)).join('\n');
}

async function pdfText(data: Buffer): Promise<string> {
  let document: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    // A copy: pdf.js takes the buffer over. No eval, no fonts from outside, no console chatter.
    document = await getDocumentProxy(new Uint8Array(data), { verbosity: 0, isEvalSupported: false, disableFontFace: true, useSystemFonts: false });
  } catch (error) {
    if (error instanceof Error && error.name === 'PasswordException') throw badRequest(PDF_PROTECTED);
    throw badRequest(NOT_A_PDF);
  }
  try {
    if (document.numPages > MAX_PDF_PAGES) throw badRequest(PDF_TOO_LONG);
    const { text } = await extractText(document, { mergePages: false });
    return text.join('\n\n');
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw badRequest(NOT_A_PDF);
  } finally {
    await document.destroy();
  }
}

async function docxText(data: Buffer): Promise<string> {
  try {
    return (await mammoth.extractRawText({ buffer: data })).value;
  } catch {
    throw badRequest(UNREADABLE_WORD);
  }
}

/** The text a person sees in a cell, whatever exceljs made of it (rich text, formula result, link, date…). */
function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string' || typeof value === 'boolean') return String(value).trim();
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if ('richText' in value) return value.richText.map((part) => part.text).join('');
  if ('formula' in value || 'sharedFormula' in value) return 'result' in value && value.result !== undefined ? cellText(value.result as ExcelJS.CellValue) : '';
  if ('text' in value && typeof value.text === 'string') return value.text;
  return '';
}

/** Every worksheet: its first row names the columns, each other row becomes a sentence with those names. */
async function xlsxText(data: Buffer): Promise<string> {
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(data as unknown as ExcelJS.Buffer);
  } catch {
    throw badRequest(UNREADABLE_EXCEL);
  }
  const sheets: string[] = [];
  for (const sheet of workbook.worksheets) {
    const rows: string[][] = [];
    sheet.eachRow({ includeEmpty: false }, (row) => {
      const values: string[] = [];
      row.eachCell({ includeEmpty: true }, (cell, column) => {
        values[column - 1] = cellText(cell.value);
      });
      rows.push(Array.from(values, (value) => value ?? ''));
    });
    const [header, ...body] = rows;
    if (!header) continue;
    const lines = body.length > 0 ? rowsAsSentences(header, body) : [header.filter(Boolean).join(', ')];
    sheets.push(workbook.worksheets.length > 1 ? [`Hoja ${sheet.name}:`, ...lines].join('\n') : lines.join('\n'));
  }
  return sheets.join('\n\n');
}

/**
 * A zip's declared unpacked size, read from its central directory before a parser inflates it (a 5 MB zip may hold
 * gigabytes). The end-of-central-directory record is within the last 65,557 bytes.
 */
export function checkUnzippedSize(data: Buffer) {
  const searchFrom = Math.max(0, data.length - 65_557);
  let end = -1;
  for (let offset = data.length - 22; offset >= searchFrom; offset--) {
    if (data.readUInt32LE(offset) === 0x06054b50) {
      end = offset;
      break;
    }
  }
  if (end < 0) return; // Not a well-formed zip: the parser will say it cannot read it.
  const entries = data.readUInt16LE(end + 10);
  let offset = data.readUInt32LE(end + 16);
  let total = 0;
  for (let index = 0; index < entries && offset + 46 <= data.length; index++) {
    if (data.readUInt32LE(offset) !== 0x02014b50) break;
    const unpacked = data.readUInt32LE(offset + 24);
    // 0xFFFFFFFF: a ZIP64 size, over 4 GB.
    total += unpacked === 0xffffffff ? Number.MAX_SAFE_INTEGER : unpacked;
    if (total > MAX_UNZIPPED_BYTES) throw badRequest(ZIP_TOO_LARGE);
    offset += 46 + data.readUInt16LE(offset + 28) + data.readUInt16LE(offset + 30) + data.readUInt16LE(offset + 32);
  }
}
