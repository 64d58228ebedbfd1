import type { TemplateStatus, VariablesSchema } from '@embudo/contracts/http/templates';
import type { ProviderTemplate, TemplateForReview } from '../provider.ts';
import { reviewButton } from '../template-buttons.ts';
import type { PartnerTemplate } from './gupshup-partner.client.ts';

/** Fills each `{{N}}` with a sample: Meta reviews the body with examples in place (gupshup.md §7.4 `example`). */
export function withSamples(text: string, variables: VariablesSchema): string {
  return text.replace(/\{\{\s*(\d+)\s*\}\}/g, (_match, n: string) => `[${variables[n]?.label ?? `Variable ${n}`}]`);
}

/** The form fields of `POST /partner/app/{appId}/templates` for one template (gupshup.md §7.4). */
export function toPartnerTemplateFields(template: TemplateForReview): Record<string, string> {
  const media = template.header && template.header.type !== 'TEXT' ? template.header : null;
  const textHeader = template.header?.type === 'TEXT' ? template.header.text : null;
  const fields: Record<string, string> = {
    elementName: template.name,
    languageCode: template.languageCode,
    category: template.category,
    templateType: template.header?.type ?? 'TEXT',
    vertical: template.name,
    content: template.bodyText,
    example: withSamples(template.bodyText, template.variablesSchema),
    enableSample: media ? 'true' : 'false',
    allowTemplateCategoryChange: 'false',
  };
  if (textHeader) {
    fields.header = textHeader;
    fields.exampleHeader = textHeader;
  }
  if (media) fields.exampleMedia = media.example_handle;
  if (template.footer) fields.footer = template.footer;
  if (template.buttons.length > 0) fields.buttons = JSON.stringify(template.buttons.map(reviewButton));
  return fields;
}

const knownStatuses: readonly string[] = ['PENDING', 'APPROVED', 'REJECTED', 'PAUSED', 'FAILED'];

/** Gupshup's status in our five; DISABLED and DELETED templates can no longer be sent, like FAILED ones. */
export function toTemplateStatus(providerStatus: string): TemplateStatus {
  const upper = providerStatus.toUpperCase();
  if (knownStatuses.includes(upper)) return upper as TemplateStatus;
  if (upper === 'DISABLED' || upper === 'DELETED') return 'FAILED';
  return 'PENDING';
}

export function toProviderTemplate(template: PartnerTemplate): ProviderTemplate {
  return {
    id: template.id,
    name: template.elementName,
    languageCode: template.languageCode,
    status: toTemplateStatus(template.status),
    reason: template.reason,
  };
}
