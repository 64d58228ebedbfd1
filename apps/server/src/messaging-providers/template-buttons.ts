import type { TemplateButton } from '@embudo/contracts/http/templates';

const urlVariable = /\{\{\s*\d+\s*\}\}/g;

/**
 * A template button as Meta's review takes it: the WABA's component format, which Gupshup's partner API passes on
 * as it is (meta-cloud.md §4.1, gupshup.md §7.4).
 */
export function reviewButton(button: TemplateButton): Record<string, unknown> {
  switch (button.type) {
    case 'QUICK_REPLY':
      return { type: 'QUICK_REPLY', text: button.text };
    case 'URL':
      // A dynamic URL ({{1}} at its end) needs an example URL for the review.
      return {
        type: 'URL',
        text: button.text,
        url: button.url,
        ...(/\{\{\s*\d+\s*\}\}/.test(button.url) ? { example: [button.url.replace(urlVariable, '1')] } : {}),
      };
    case 'PHONE_NUMBER':
      return { type: 'PHONE_NUMBER', text: button.text, phone_number: button.phone_number };
  }
}
