/**
 * Rebuilds the two binary documents of the knowledge evaluation set from their committed sources:
 * `sources/catalogo-2025.html` → `documents/catalogo-2025.pdf` (Chromium's print, so the PDF carries real, selectable
 * text as a PDF exported from a word processor does) and `sources/servicios-taller.json` → `documents/servicios-taller.xlsx`.
 * Run after editing a source: `npx tsx bench/knowledge-eval/make-documents.ts`. The outputs are committed so the set
 * reads the same bytes everywhere, without a browser.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import ExcelJS from 'exceljs';
import { CHROMIUM_LAUNCH_OPTIONS } from '../../e2e/chromium-launch.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const sources = path.join(here, 'sources');
const documents = path.join(here, 'documents');

async function makeCatalogue() {
  const browser = await chromium.launch(CHROMIUM_LAUNCH_OPTIONS);
  try {
    const page = await browser.newPage();
    await page.setContent(fs.readFileSync(path.join(sources, 'catalogo-2025.html'), 'utf8'), { waitUntil: 'load' });
    const pdf = await page.pdf({ format: 'A4', printBackground: true, preferCSSPageSize: true, tagged: true });
    fs.writeFileSync(path.join(documents, 'catalogo-2025.pdf'), pdf);
  } finally {
    await browser.close();
  }
}

interface SheetSource {
  name: string;
  columns: string[];
  widths: number[];
  rows: (string | number)[][];
}

async function makeServices() {
  const source = JSON.parse(fs.readFileSync(path.join(sources, 'servicios-taller.json'), 'utf8')) as { sheets: SheetSource[] };
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Rodada Bicicletas';
  // A fixed date keeps the file's bytes the same from one run to the next.
  workbook.created = workbook.modified = new Date('2025-02-01T12:00:00Z');
  for (const sheet of source.sheets) {
    const worksheet = workbook.addWorksheet(sheet.name);
    worksheet.columns = sheet.columns.map((header, index) => ({ header, width: sheet.widths[index] ?? 20 }));
    worksheet.getRow(1).font = { bold: true };
    for (const row of sheet.rows) worksheet.addRow(row);
    sheet.columns.forEach((header, index) => {
      if (header.startsWith('Precio')) worksheet.getColumn(index + 1).numFmt = '"$"#,##0';
    });
  }
  fs.writeFileSync(path.join(documents, 'servicios-taller.xlsx'), Buffer.from(await workbook.xlsx.writeBuffer()));
}

await makeCatalogue();
await makeServices();
