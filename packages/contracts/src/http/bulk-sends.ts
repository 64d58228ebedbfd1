import { z } from 'zod';
import { requiredText, safeText, trimmedText } from '../text.ts';

/** Spec 02 §4: a batch is processing until every row left the send stage, then completed (or failed when nothing went out). */
export const batchStatuses = ['processing', 'completed', 'failed'] as const;
export type BatchStatus = (typeof batchStatuses)[number];

/** Spec 02 §5 and §8, word for word. */
export const BULK_REQUIRED_FIELDS = 'Por favor completa todos los campos requeridos.';
export const EXCEL_FILES_ONLY = 'Por favor, sube un archivo Excel (.xls, .xlsx).';
export const BULK_SEND_QUEUED = '¡Lote encolado! El envío se está procesando en segundo plano.';

/**
 * One batch sends to at most this many rows (issue 16): the file is read as a stream and its rows go out at the
 * number's rate, so the cap only keeps one upload within a few minutes' work for the checks and the insert.
 */
export const BULK_MAX_ROWS = 100_000;
export const BULK_MAX_FILE_BYTES = 10 * 1024 * 1024;
/** Thousands with a dot, as Spanish writes them (Intl leaves four-digit numbers ungrouped in es). */
export const thousands = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, '.');
export const BULK_TOO_MANY_ROWS = (rows: number) =>
  `El archivo tiene ${thousands(rows)} filas con datos: el máximo por envío es ${thousands(BULK_MAX_ROWS)}. Divídelo en varios archivos.`;
export const BULK_NO_DATA_ROWS = 'El archivo no tiene filas con datos debajo de los encabezados.';

/** Why a file with this many data rows cannot be sent, or undefined when it can: the wizard and the server say the same. */
export function bulkRowCountProblem(dataRows: number): string | undefined {
  if (dataRows === 0) return BULK_NO_DATA_ROWS;
  if (dataRows > BULK_MAX_ROWS) return BULK_TOO_MANY_ROWS(dataRows);
  return undefined;
}

/** The sample file (spec 02 §2 Bulk send modal): a phone column named telefono, then one column per template variable label. */
export const SAMPLE_FILE_NAME = 'plantilla_ejemplo.xlsx';
export const SAMPLE_PHONE_HEADER = 'telefono';

const byNumber = (a: string, b: string) => Number(a) - Number(b);

/** A template's variables by number, as its variables_schema holds them. */
export type LabelledVariables = Record<string, { label: string }>;

/** The template's variable numbers in `{{N}}` order. */
export function variableNumbers(schema: LabelledVariables): string[] {
  return Object.keys(schema).sort(byNumber);
}

/** The sample file's headers: telefono, then each variable's label. */
export function sampleHeaders(schema: LabelledVariables): string[] {
  return [SAMPLE_PHONE_HEADER, ...variableNumbers(schema).map((n) => schema[n]!.label)];
}

const comparable = (header: string) =>
  header
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .trim()
    .toLowerCase();

/** Each variable read from the column named like its label, as in the sample file; variables without such a column are left out. */
export function defaultVariableColumns(schema: LabelledVariables, headers: readonly string[]): Record<string, string> {
  const mapping: Record<string, string> = {};
  for (const n of variableNumbers(schema)) {
    const header = headers.find((candidate) => comparable(candidate) === comparable(schema[n]!.label));
    if (header) mapping[n] = header;
  }
  return mapping;
}

/** The column that most likely holds the contacts' names (nombre, name, cliente…), offered as the wizard's default. */
export function pickNameColumn(headers: readonly string[]): string | undefined {
  return headers.find((header) => /^(nombre|name|cliente|contacto)\b/.test(comparable(header)));
}

/** Spec 02 §5: the phone column is auto-picked when a header contains telefono or phone (accents and case aside). */
export function pickPhoneColumn(headers: readonly string[]): string | undefined {
  return headers.find((header) => /telefono|phone/.test(comparable(header)));
}

/**
 * A phone as WhatsApp wants it (country code and number, digits only), from what people type in a sheet:
 * spaces, dashes, dots, brackets and a leading + or 00 are dropped. Undefined when it is not a phone.
 */
export function normalizePhone(raw: string): string | undefined {
  let digits = raw.trim().replace(/[\s\-.()/]/g, '');
  if (digits.startsWith('+')) digits = digits.slice(1);
  else if (digits.startsWith('00')) digits = digits.slice(2);
  return /^\d{8,15}$/.test(digits) ? digits : undefined;
}

const requiredField = (max: number, tooLong?: string) => requiredText(max, BULK_REQUIRED_FIELDS, tooLong);

/**
 * The text fields of POST /api/funnels/{id}/batches (multipart, beside `file`). `variableColumns` is JSON
 * mapping a variable number to the header of the column that fills it, e.g. {"1":"Nombre"}; when left out,
 * each variable is read from the column named like its label (the sample file's layout).
 */
export const createBatchFields = z.object({
  templateId: requiredField(100, 'Plantilla inválida.').pipe(z.uuid({ error: 'Plantilla inválida.' })),
  targetColumnId: requiredField(100, 'Columna inválida.').pipe(z.uuid({ error: 'Columna inválida.' })),
  phoneColumn: requiredField(200, 'El nombre de la columna de teléfono es demasiado largo.'),
  /** Optional: the column holding each contact's name, which titles their new chat instead of the phone. */
  nameColumn: trimmedText(200, { tooLong: 'El nombre de la columna de nombre es demasiado largo.' })
    .optional()
    .transform((text) => text || undefined),
  variableColumns: safeText(20_000)
    .optional()
    .transform((text, context) => {
      if (!text?.trim()) return undefined;
      try {
        return JSON.parse(text) as unknown;
      } catch {
        context.addIssue({ code: 'custom', message: 'variableColumns debe ser JSON: {"1": "Nombre de la columna"}.' });
        return z.NEVER;
      }
    })
    .pipe(
      z
        .record(
          z.string().regex(/^\d{1,3}$/, { error: 'Las variables se nombran por su número: 1, 2, 3…' }),
          requiredText(200, 'Cada variable se asigna al nombre de una columna.'),
          { error: 'variableColumns debe ser JSON: {"1": "Nombre de la columna"}.' },
        )
        .optional(),
    ),
});
export type CreateBatchFields = z.infer<typeof createBatchFields>;

/** Spec 02 §3 Batch; counts follow each message's delivery state and the customers' replies. */
export const batchResponse = z.object({
  id: z.string(),
  created_at: z.string(),
  status: z.enum(batchStatuses),
  message_template_name: z.string(),
  user_name: z.string(),
  total_messages: z.number(),
  sent_count: z.number(),
  delivered_count: z.number(),
  read_count: z.number(),
  replied_count: z.number(),
  failed_count: z.number(),
  /** Why its rows failed (the most frequent reason, e.g. the provider's refusal), or null. */
  failure_reason: z.string().nullable(),
  funnel_id: z.string(),
  /** Issue 16, while processing: the company's number's send rate now, in messages per second. */
  send_rate: z.number().optional(),
  /** Issue 16, while processing: when its rows still waiting should have gone out at that rate (ISO time). */
  estimated_end_at: z.string().optional(),
});
export type BatchDto = z.infer<typeof batchResponse>;
export const batchListResponse = z.array(batchResponse);

/** What the upload found besides the batch: rows refused before sending (counted as failed) and repeated phones (sent once). */
export const createBatchResponse = batchResponse.extend({ invalid_rows: z.number(), duplicates_skipped: z.number() });
export type CreateBatchResponse = z.infer<typeof createBatchResponse>;

/** Issue 18: one failed row of a batch, with the reason people can act on and the provider's code. */
export const batchFailureResponse = z.object({
  /** The row's number in the uploaded sheet. */
  row_number: z.number(),
  phone: z.string().nullable(),
  contact_name: z.string().nullable(),
  reason: z.string(),
  /** The provider's code (Meta's 131026, Gupshup's 1002…); null for rows refused before sending. */
  code: z.string().nullable(),
});
export type BatchFailureDto = z.infer<typeof batchFailureResponse>;
export const batchFailureListResponse = z.array(batchFailureResponse);

/** The spreadsheet of a batch's failed rows, and its header row. */
export const failedRowsFileName = (templateName: string) => `envio_${templateName}_fallidos.xlsx`;
export const FAILED_ROWS_HEADERS = ['Fila', 'Teléfono', 'Nombre', 'Motivo', 'Código'] as const;
