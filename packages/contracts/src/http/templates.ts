import { z } from 'zod';
import { requiredText, safeString, safeText, trimmedText } from '../text.ts';

/** Spec 02 §9: template categories, languages, header and button types, and their limits. */
export const templateCategories = ['UTILITY', 'MARKETING', 'AUTHENTICATION'] as const;
export const templateLanguages = ['es', 'en_US', 'pt_BR'] as const;
export const templateStatuses = ['PENDING', 'APPROVED', 'REJECTED', 'PAUSED', 'FAILED'] as const;
export const templateHeaderTypes = ['TEXT', 'IMAGE', 'VIDEO', 'DOCUMENT'] as const;
export const templateButtonTypes = ['QUICK_REPLY', 'URL', 'PHONE_NUMBER'] as const;

export type TemplateCategory = (typeof templateCategories)[number];
export type TemplateLanguage = (typeof templateLanguages)[number];
export type TemplateStatus = (typeof templateStatuses)[number];
export type TemplateHeaderType = (typeof templateHeaderTypes)[number];
export type TemplateButtonType = (typeof templateButtonTypes)[number];

export const TEMPLATE_LIMITS = { name: 180, header: 60, body: 1024, footer: 60, buttonText: 25, buttons: 3 } as const;

/** Media a header sample may be, by header type (checked by content on the server). */
export const templateMediaTypes: Record<Exclude<TemplateHeaderType, 'TEXT'>, readonly string[]> = {
  IMAGE: ['image/png', 'image/jpeg'],
  VIDEO: ['video/mp4'],
  DOCUMENT: ['application/pdf'],
};

export const TEMPLATE_NAME_HINT = 'Solo letras minúsculas, números y guiones bajos.';
export const TEMPLATE_NAME_REQUIRED = 'El nombre de la plantilla es requerido (solo letras minúsculas, números y guiones bajos).';
export const TEMPLATE_NOT_FOUND = 'Template not found.';
export const MEDIA_UPLOAD_INVALID_RESPONSE = 'Invalid response from media upload API.';
export const TEMPLATE_MEDIA_UNSUPPORTED = 'Tipo de archivo no permitido: usa PNG o JPEG para imagen, MP4 para video o PDF para documento.';

/** Lowercases and keeps only a–z, 0–9 and underscore (spec 02 §5 Template name). */
export function normaliseTemplateName(raw: string): string {
  return raw.toLowerCase().replace(/[^a-z0-9_]/g, '');
}

export interface TemplateVariable {
  type: 'text';
  label: string;
}
export type VariablesSchema = Record<string, TemplateVariable>;

const PLACEHOLDER = /\{\{\s*(\d+)\s*\}\}/g;

/** The body's numbered placeholders `{{1}}`, `{{2}}`… in order, each labelled 'Variable N'. */
export function deriveVariablesSchema(bodyText: string): VariablesSchema {
  const numbers = new Set<number>();
  for (const match of bodyText.matchAll(PLACEHOLDER)) numbers.add(Number(match[1]));
  const schema: VariablesSchema = {};
  for (const n of [...numbers].sort((a, b) => a - b)) schema[String(n)] = { type: 'text', label: `Variable ${n}` };
  return schema;
}

/** Variables as a send carries them: `{"1": "Ana"}` or `["Ana"]` (the first value fills `{{1}}`). */
export type TemplateVariables = Record<string, string> | string[];

export function variablesByNumber(variables: TemplateVariables | null | undefined): Record<string, string> {
  if (!variables) return {};
  if (Array.isArray(variables)) return Object.fromEntries(variables.map((value, index) => [String(index + 1), value]));
  return variables;
}

/** The text with each `{{N}}` replaced by its value; a placeholder without a value stays as written. */
export function fillPlaceholders(text: string, variables: TemplateVariables | null | undefined): string {
  const values = variablesByNumber(variables);
  return text.replace(PLACEHOLDER, (whole, n: string) => values[n] || whole);
}

const tooLong = (what: string, max: number) => `${what} no puede superar ${max} caracteres.`;

const buttonText = requiredText(TEMPLATE_LIMITS.buttonText, 'El texto del botón es requerido.', tooLong('El texto del botón', TEMPLATE_LIMITS.buttonText));

export const templateButton = z.discriminatedUnion(
  'type',
  [
    z.object({ type: z.literal('QUICK_REPLY'), text: buttonText }),
    z.object({
      type: z.literal('URL'),
      text: buttonText,
      url: trimmedText(2000, { error: 'La URL del botón es requerida.' }).regex(/^https?:\/\/\S+$/i, {
        error: 'La URL del botón debe empezar con http:// o https://.',
      }),
    }),
    z.object({
      type: z.literal('PHONE_NUMBER'),
      text: buttonText,
      phone_number: trimmedText(40, {
        error: 'El teléfono del botón es requerido.',
        tooLong: 'El teléfono del botón debe tener solo dígitos con código de país.',
      }).regex(/^\+?\d{6,20}$/, { error: 'El teléfono del botón debe tener solo dígitos con código de país.' }),
    }),
  ],
  { error: 'Tipo de botón inválido: usa QUICK_REPLY, URL o PHONE_NUMBER.' },
);
export type TemplateButton = z.infer<typeof templateButton>;

export const TOO_MANY_BUTTONS = `Máximo ${TEMPLATE_LIMITS.buttons} botones.`;
export const ONE_PHONE_BUTTON = 'Solo puede haber un botón de llamada (PHONE_NUMBER).';
export const TWO_URL_BUTTONS = 'Solo puede haber dos botones de enlace (URL).';
export const QUICK_REPLIES_TOGETHER = 'Los botones de respuesta rápida deben ir juntos, antes o después de los demás botones.';

/**
 * WhatsApp's rules for a set of buttons (gupshup.md §7.4): at most one call button, two link buttons, and
 * quick replies grouped apart from the others. The first rule broken, or null.
 */
export function buttonSetProblem(buttons: ReadonlyArray<{ type: string }>): string | null {
  if (buttons.length > TEMPLATE_LIMITS.buttons) return TOO_MANY_BUTTONS;
  if (buttons.filter((button) => button.type === 'PHONE_NUMBER').length > 1) return ONE_PHONE_BUTTON;
  if (buttons.filter((button) => button.type === 'URL').length > 2) return TWO_URL_BUTTONS;
  const kinds = buttons.map((button) => (button.type === 'QUICK_REPLY' ? 'quick' : 'other'));
  const switches = kinds.filter((kind, index) => index > 0 && kind !== kinds[index - 1]).length;
  return switches > 1 ? QUICK_REPLIES_TOGETHER : null;
}

export const templateHeader = z.discriminatedUnion(
  'type',
  [
    z.object({
      type: z.literal('TEXT'),
      text: requiredText(TEMPLATE_LIMITS.header, 'El texto del encabezado es requerido.', tooLong('El encabezado', TEMPLATE_LIMITS.header)),
    }),
    ...(['IMAGE', 'VIDEO', 'DOCUMENT'] as const).map((type) =>
      z.object({
        type: z.literal(type),
        example_handle: requiredText(2000, 'Sube un archivo de ejemplo para el encabezado.'),
        /** Our copy of the sample (POST /api/templates/media answers it): the preview shows it and sends use it as the header. */
        media_url: trimmedText(2000)
          .regex(/^(\/media\/|https:\/\/)\S+$/, { error: 'La URL del archivo del encabezado no es válida.' })
          .optional(),
      }),
    ),
  ],
  { error: 'Tipo de encabezado inválido: usa TEXT, IMAGE, VIDEO o DOCUMENT.' },
);
export type TemplateHeader = z.infer<typeof templateHeader>;

/** Create and update share one shape: saving always re-submits the whole template for review. */
export const templateRequest = z.object({
  name: safeText(1000, { error: TEMPLATE_NAME_REQUIRED, tooLong: tooLong('El nombre', TEMPLATE_LIMITS.name) })
    .transform(normaliseTemplateName)
    .pipe(safeText(TEMPLATE_LIMITS.name, { tooLong: tooLong('El nombre', TEMPLATE_LIMITS.name) }).min(1, { error: TEMPLATE_NAME_REQUIRED })),
  category: z.enum(templateCategories, { error: 'Categoría inválida: usa UTILITY, MARKETING o AUTHENTICATION.' }).default('UTILITY'),
  language_code: z.enum(templateLanguages, { error: 'Idioma inválido: usa es, en_US o pt_BR.' }).default('es'),
  header: templateHeader.nullish().transform((header) => header ?? null),
  body_text: requiredText(TEMPLATE_LIMITS.body, 'El cuerpo del mensaje es requerido.', tooLong('El cuerpo del mensaje', TEMPLATE_LIMITS.body)),
  footer: trimmedText(TEMPLATE_LIMITS.footer, { error: 'El pie de página debe ser texto.', tooLong: tooLong('El pie de página', TEMPLATE_LIMITS.footer) })
    .nullish()
    .transform((footer) => footer || null),
  buttons: z
    .array(templateButton, { error: 'Los botones deben ser una lista.' })
    .superRefine((buttons, context) => {
      const problem = buttonSetProblem(buttons);
      if (problem) context.addIssue({ code: 'custom', message: problem });
    })
    .nullish()
    .transform((buttons) => buttons ?? []),
});
export type TemplateRequest = z.infer<typeof templateRequest>;
export type TemplateRequestInput = z.input<typeof templateRequest>;

export const templateResponse = z.object({
  id: z.string(),
  name: z.string(),
  category: z.enum(templateCategories),
  language_code: z.enum(templateLanguages),
  header: templateHeader.nullable(),
  body_text: z.string(),
  footer: z.string().nullable(),
  buttons: z.array(templateButton),
  status: z.enum(templateStatuses),
  rejection_reason: z.string().nullable(),
  /** The platform operator rejected it: a block no sync with Meta lifts; `rejection_reason` is the operator's reason. */
  blocked_by_operator: z.boolean(),
  provider_template_id: z.string().nullable(),
  variables_schema: z.record(z.string(), z.object({ type: z.literal('text'), label: z.string() })),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TemplateDto = z.infer<typeof templateResponse>;

/** Spec 02 §7: `?status=` is `all` (or empty) for every template, or one status such as APPROVED, in any case. */
export const templateListQuery = z.object({
  status: z.preprocess(
    (value) => {
      if (typeof value !== 'string') return value;
      const status = value.trim().toUpperCase();
      return status === '' || status === 'ALL' ? undefined : status;
    },
    z.enum(templateStatuses, { error: 'Estado de plantilla inválido: usa all, APPROVED, PENDING, REJECTED, PAUSED o FAILED.' }).optional(),
  ),
});
export const templateListResponse = z.array(templateResponse);

export const templateSyncResponse = z.object({ synced: z.number(), templates: z.array(templateResponse) });
export type TemplateSyncResponse = z.infer<typeof templateSyncResponse>;

/** `handleId` is the provider's sample handle; `url` our stored copy, kept in the header as `media_url`. */
export const templateMediaResponse = z.object({ handleId: z.string(), headerType: z.enum(['IMAGE', 'VIDEO', 'DOCUMENT']), url: z.string() });
export type TemplateMediaResponse = z.infer<typeof templateMediaResponse>;

/**
 * A template as the customer's WhatsApp shows it (the sandbox phone): the approved template with the
 * params in place and, for a media header, the file sent with it.
 */
export const renderedTemplateSchema = z.object({
  name: z.string(),
  header: z
    .union([z.object({ type: z.literal('TEXT'), text: z.string() }), z.object({ type: z.enum(['IMAGE', 'VIDEO', 'DOCUMENT']), url: z.string().optional() })])
    .optional(),
  body: z.string(),
  footer: z.string().optional(),
  buttons: z.array(z.object({ type: z.string(), text: z.string(), url: z.string().optional(), phone_number: z.string().optional() })),
});
export type RenderedTemplate = z.infer<typeof renderedTemplateSchema>;

/** The operator's listing (spec 02 §7 Admin): every tenant's templates with the tenant's name. */
export const adminTemplateResponse = templateResponse.extend({ tenant_id: z.string(), tenant_name: z.string() });
export const adminTemplateListResponse = z.array(adminTemplateResponse);
export type AdminTemplateDto = z.infer<typeof adminTemplateResponse>;

export const OPERATOR_REASON_MAX = 500;

/**
 * Spec 02 §4: the operator sets APPROVED on any non-approved template and REJECTED on any non-rejected one.
 * `reason` (optional) is what the company is told with a rejection; blank means the default below.
 */
export const adminTemplateStatusRequest = z.object({
  status: z.enum(['APPROVED', 'REJECTED'], { error: 'Estado inválido: usa APPROVED o REJECTED.' }),
  reason: safeString('El motivo debe ser texto.')
    .trim()
    .max(OPERATOR_REASON_MAX, { error: `El motivo no puede superar ${OPERATOR_REASON_MAX} caracteres.` })
    .nullish()
    .transform((reason) => reason || undefined),
});
export type AdminTemplateStatusRequest = z.input<typeof adminTemplateStatusRequest>;
export const OPERATOR_REJECTION_REASON = 'Rechazada por el administrador de la plataforma.';
/** What the company's screens say about a template the operator blocked. */
export const OPERATOR_BLOCK_NOTICE = 'Bloqueada por el administrador de la plataforma: no se puede enviar y Sincronizar con Meta no cambia su estado.';
