import type { TemplateStatus } from '@embudo/contracts/http/templates';
import type { ProviderTemplate, TemplateForReview } from '../provider.ts';
import { reviewButton } from '../template-buttons.ts';

/** Template management on the WABA (meta-cloud.md §4). */

const placeholder = /\{\{\s*(\d+)\s*\}\}/g;

/** The body of `POST /{waba-id}/message_templates` (§4.1): positional parameters, each body variable with its label as example. */
export function toMetaTemplate(template: TemplateForReview): Record<string, unknown> {
  const components: Array<Record<string, unknown>> = [];
  const header = template.header;
  if (header?.type === 'TEXT') {
    const samples = [...header.text.matchAll(placeholder)].map(() => template.name);
    components.push({ type: 'HEADER', format: 'TEXT', text: header.text, ...(samples.length > 0 ? { example: { header_text: samples } } : {}) });
  } else if (header) {
    components.push({ type: 'HEADER', format: header.type, example: { header_handle: [header.example_handle] } });
  }
  const numbers = [...new Set([...template.bodyText.matchAll(placeholder)].map((match) => match[1]!))].sort((a, b) => Number(a) - Number(b));
  components.push({
    type: 'BODY',
    text: template.bodyText,
    ...(numbers.length > 0 ? { example: { body_text: [numbers.map((n) => template.variablesSchema[n]?.label ?? `Variable ${n}`)] } } : {}),
  });
  if (template.footer) components.push({ type: 'FOOTER', text: template.footer });
  if (template.buttons.length > 0) components.push({ type: 'BUTTONS', buttons: template.buttons.map(reviewButton) });
  return { name: template.name, language: template.languageCode, category: template.category, parameter_format: 'positional', components };
}

/** Meta's statuses (§4.5) in our five: disabled, deleted or archived templates can no longer be sent; an appeal is still under review. */
export function toTemplateStatus(metaStatus: string): TemplateStatus {
  const upper = metaStatus.toUpperCase();
  if (upper === 'APPROVED' || upper === 'PENDING' || upper === 'REJECTED' || upper === 'PAUSED') return upper;
  if (upper === 'IN_APPEAL') return 'PENDING';
  if (['DISABLED', 'PENDING_DELETION', 'DELETED', 'ARCHIVED', 'LIMIT_EXCEEDED'].includes(upper)) return 'FAILED';
  return 'PENDING';
}

/** A reason worth showing: Meta says `NONE` when there is none. */
export const templateReason = (value: unknown) => (typeof value === 'string' && value && value.toUpperCase() !== 'NONE' ? value : null);

/** One entry of `GET /{waba-id}/message_templates` (§4.2). */
export function fromMetaTemplate(value: unknown): ProviderTemplate | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const item = value as Record<string, unknown>;
  const id = typeof item.id === 'string' || typeof item.id === 'number' ? String(item.id) : undefined;
  if (!id || typeof item.name !== 'string') return undefined;
  const status = toTemplateStatus(typeof item.status === 'string' ? item.status : 'PENDING');
  return {
    id,
    name: item.name,
    languageCode: typeof item.language === 'string' ? item.language : '',
    status,
    reason: status === 'APPROVED' || status === 'PENDING' ? null : templateReason(item.rejected_reason ?? item.reason),
  };
}
