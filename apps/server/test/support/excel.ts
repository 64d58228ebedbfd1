import { randomUUID } from 'node:crypto';
import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';

/** An .xlsx whose first sheet holds these rows (the first one the headers), as a person's file would. */
export async function excelFile(rows: unknown[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Contactos');
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/**
 * A large .xlsx written as a stream (exceljs's streaming writer, as a big export would be): the headers, then
 * `count` rows made by `row(i)`. Far quicker and leaner than building the workbook in memory.
 */
export async function largeExcelFile(headers: string[], count: number, row: (index: number) => unknown[]): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useSharedStrings: false, useStyles: false });
  const sheet = workbook.addWorksheet('Contactos');
  sheet.addRow(headers).commit();
  for (let index = 0; index < count; index++) sheet.addRow(row(index)).commit();
  sheet.commit();
  await workbook.commit();
  return Buffer.concat(chunks);
}

/** A multipart body of text fields and at most one file, as a browser's FormData sends it. */
export function multipartForm(fields: Record<string, string>, file?: { field: string; name: string; data: Buffer }) {
  const boundary = `----embudo${randomUUID()}`;
  const parts: Buffer[] = Object.entries(fields).map(([name, value]) =>
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
  );
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      file.data,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
