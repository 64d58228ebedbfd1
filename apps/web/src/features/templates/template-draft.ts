import {
  normaliseTemplateName,
  TEMPLATE_LIMITS,
  templateRequest,
  type TemplateButtonType,
  type TemplateCategory,
  type TemplateDto,
  type TemplateHeaderType,
  type TemplateLanguage,
  type TemplateRequestInput,
} from '@embudo/contracts/http/templates';

export type MediaHeaderType = Exclude<TemplateHeaderType, 'TEXT'>;

export type DraftHeader = { type: 'TEXT'; text: string } | { type: MediaHeaderType; example_handle: string; media_url?: string };

export type DraftButton =
  { type: 'QUICK_REPLY'; text: string } | { type: 'URL'; text: string; url: string } | { type: 'PHONE_NUMBER'; text: string; phone_number: string };

/** What the editor holds while a person types: the request before the server's checks. */
export interface TemplateDraft {
  name: string;
  category: TemplateCategory;
  language_code: TemplateLanguage;
  header: DraftHeader | null;
  body_text: string;
  footer: string;
  buttons: DraftButton[];
}

/** A new template: UTILITY in es, no header, no buttons (spec 02 §9 defaults). */
export function emptyDraft(): TemplateDraft {
  return { name: '', category: 'UTILITY', language_code: 'es', header: null, body_text: '', footer: '', buttons: [] };
}

export function draftFromTemplate(template: TemplateDto): TemplateDraft {
  return {
    name: template.name,
    category: template.category,
    language_code: template.language_code,
    header: template.header,
    body_text: template.body_text,
    footer: template.footer ?? '',
    buttons: template.buttons,
  };
}

/** The name as typed, lowercased with everything but a–z, 0–9 and underscore removed (spec 02 §5). */
export const nameAsTyped = normaliseTemplateName;

/** Spec 02 §4: NONE removes the header; any other type starts a fresh header of that type. */
export function withHeaderType(draft: TemplateDraft, type: TemplateHeaderType | 'NONE'): TemplateDraft {
  if (type === 'NONE') return { ...draft, header: null };
  return { ...draft, header: type === 'TEXT' ? { type: 'TEXT', text: '' } : { type, example_handle: '' } };
}

/**
 * The button types that may still be added: none at 3 buttons (the add controls disappear), and
 * WhatsApp's per-type limits of one call button and two link buttons.
 */
export function addableButtonTypes(buttons: readonly DraftButton[]): TemplateButtonType[] {
  if (buttons.length >= TEMPLATE_LIMITS.buttons) return [];
  const count = (type: TemplateButtonType) => buttons.filter((button) => button.type === type).length;
  return (['QUICK_REPLY', 'URL', 'PHONE_NUMBER'] as const).filter((type) =>
    type === 'URL' ? count('URL') < 2 : type === 'PHONE_NUMBER' ? count('PHONE_NUMBER') < 1 : true,
  );
}

/** A new button; a URL button starts with this site's address (spec 02 §5: new URL buttons start with {host}). */
export function newButton(type: TemplateButtonType, host: string): DraftButton {
  if (type === 'URL') return { type, text: '', url: `https://${host}/` };
  if (type === 'PHONE_NUMBER') return { type, text: '', phone_number: '' };
  return { type, text: '' };
}

/**
 * Adds a button after the last one of its kind, so quick replies always stay grouped apart from the
 * others as WhatsApp requires.
 */
export function addButton(buttons: readonly DraftButton[], type: TemplateButtonType, host: string): DraftButton[] {
  if (!addableButtonTypes(buttons).includes(type)) return [...buttons];
  const quick = type === 'QUICK_REPLY';
  const sameKind = buttons.map((button, index) => ((button.type === 'QUICK_REPLY') === quick ? index : -1)).filter((index) => index >= 0);
  const lastOfKind = sameKind.at(-1);
  const at = lastOfKind === undefined ? (quick ? 0 : buttons.length) : lastOfKind + 1;
  return [...buttons.slice(0, at), newButton(type, host), ...buttons.slice(at)];
}

export function toRequest(draft: TemplateDraft): TemplateRequestInput {
  return {
    name: draft.name,
    category: draft.category,
    language_code: draft.language_code,
    header: draft.header,
    body_text: draft.body_text,
    footer: draft.footer.trim() ? draft.footer : null,
    buttons: draft.buttons,
  };
}

/** The first message per field path ('body_text', 'header.text', 'buttons.1.url'…), from the server's own schema. */
export function draftErrors(draft: TemplateDraft): Record<string, string> {
  const parsed = templateRequest.safeParse(toRequest(draft));
  const errors: Record<string, string> = {};
  for (const issue of parsed.error?.issues ?? []) {
    const path = issue.path.map(String).join('.');
    if (!(path in errors)) errors[path] = issue.message;
  }
  return errors;
}
