import type { OutboundContent } from '../provider.ts';

/**
 * The body of `POST /{phone-number-id}/messages` for each kind of content (meta-cloud.md §2). Media go by `link`
 * (our public URL), never by an uploaded id, so nothing is uploaded twice.
 */

/** Limits Meta enforces on interactive messages (§2.5, §2.6); longer values are cut rather than refused. */
const LIMITS = { buttonTitle: 20, buttons: 3, listButton: 20, rowTitle: 24, rowDescription: 72, rows: 10, sectionTitle: 24, headerText: 60 } as const;

const cut = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

/** A recorded voice note (our uploads store them as Opus in Ogg): WhatsApp shows it with the mic (§2.2, §9). */
const isVoiceNote = (content: { url: string; fileName?: string }) => /\.(ogg|opus)$/i.test(content.fileName ?? '') || /\.(ogg|opus)(\?|$)/i.test(content.url);

function templateComponents(content: Extract<OutboundContent, { type: 'template' }>) {
  const components: Array<Record<string, unknown>> = [];
  if (content.headerMedia) {
    const { type, url, fileName } = content.headerMedia;
    components.push({ type: 'header', parameters: [{ type, [type]: { link: url, ...(type === 'document' && fileName ? { filename: fileName } : {}) } }] });
  }
  if (content.params.length > 0) components.push({ type: 'body', parameters: content.params.map((text) => ({ type: 'text', text })) });
  return components;
}

export function toMetaMessage(destination: string, content: OutboundContent): Record<string, unknown> {
  const common = { messaging_product: 'whatsapp', recipient_type: 'individual', to: destination };
  const context = 'replyToProviderId' in content && content.replyToProviderId ? { context: { message_id: content.replyToProviderId } } : {};
  switch (content.type) {
    case 'text':
      return { ...common, ...context, type: 'text', text: { body: content.text, preview_url: /https?:\/\//i.test(content.text) } };
    case 'image':
    case 'video':
      return { ...common, ...context, type: content.type, [content.type]: { link: content.url, ...(content.caption ? { caption: content.caption } : {}) } };
    case 'document':
      return {
        ...common,
        ...context,
        type: 'document',
        document: { link: content.url, filename: content.fileName ?? 'documento', ...(content.caption ? { caption: content.caption } : {}) },
      };
    case 'audio':
      // WhatsApp shows no caption on audio (§2.2).
      return { ...common, ...context, type: 'audio', audio: { link: content.url, ...(isVoiceNote(content) ? { voice: true } : {}) } };
    case 'sticker':
      return { ...common, ...context, type: 'sticker', sticker: { link: content.url } };
    case 'location':
      return {
        ...common,
        type: 'location',
        location: {
          latitude: content.latitude,
          longitude: content.longitude,
          ...(content.name ? { name: content.name } : {}),
          ...(content.address ? { address: content.address } : {}),
        },
      };
    case 'quick_reply':
      return {
        ...common,
        type: 'interactive',
        interactive: {
          type: 'button',
          ...(content.header ? { header: { type: 'text', text: cut(content.header, LIMITS.headerText) } } : {}),
          body: { text: content.text },
          ...(content.footer ? { footer: { text: cut(content.footer, LIMITS.headerText) } } : {}),
          action: {
            // The option's postback is the reply id: Meta sends it back as `button_reply.id`.
            buttons: content.options
              .slice(0, LIMITS.buttons)
              .map((option) => ({ type: 'reply', reply: { id: option.postbackText, title: cut(option.title, LIMITS.buttonTitle) } })),
          },
        },
      };
    case 'list':
      return {
        ...common,
        type: 'interactive',
        interactive: {
          type: 'list',
          header: { type: 'text', text: cut(content.title, LIMITS.headerText) },
          body: { text: content.body },
          action: {
            button: cut(content.buttonTitle, LIMITS.listButton),
            sections: [
              {
                title: cut(content.title, LIMITS.sectionTitle),
                rows: content.options.slice(0, LIMITS.rows).map((option) => ({
                  id: option.postbackText,
                  title: cut(option.title, LIMITS.rowTitle),
                  ...(option.description ? { description: cut(option.description, LIMITS.rowDescription) } : {}),
                })),
              },
            ],
          },
        },
      };
    case 'template': {
      const components = templateComponents(content);
      return {
        ...common,
        type: 'template',
        template: { name: content.name, language: { code: content.languageCode }, ...(components.length > 0 ? { components } : {}) },
      };
    }
  }
}

/** Mark as read (§2.7). */
/** A reaction of the business under a message (meta-cloud.md §2.3); an empty emoji removes it. */
export function toMetaReaction(destination: string, whatsappMessageId: string, emoji: string) {
  return { messaging_product: 'whatsapp', recipient_type: 'individual', to: destination, type: 'reaction', reaction: { message_id: whatsappMessageId, emoji } };
}

export function toMetaReadReceipt(whatsappMessageId: string) {
  return { messaging_product: 'whatsapp', status: 'read', message_id: whatsappMessageId };
}
