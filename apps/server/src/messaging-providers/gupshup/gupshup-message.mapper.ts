import type { OutboundContent } from '../provider.ts';

/** Gupshup's `message` form field for a session message (a JSON string inside the form). */
export function toGupshupMessage(content: Exclude<OutboundContent, { type: 'template' }>): Record<string, unknown> {
  const context = 'replyToProviderId' in content && content.replyToProviderId ? { context: { msgId: content.replyToProviderId } } : {};
  switch (content.type) {
    case 'text':
      return { ...context, type: 'text', text: content.text, previewUrl: false };
    case 'image':
      return { ...context, type: 'image', originalUrl: content.url, previewUrl: content.url, ...(content.caption ? { caption: content.caption } : {}) };
    case 'document':
      return {
        ...context,
        type: 'file',
        url: content.url,
        filename: content.fileName ?? 'documento',
        ...(content.caption ? { caption: content.caption } : {}),
      };
    case 'audio':
      return { ...context, type: 'audio', url: content.url };
    case 'video':
      return { ...context, type: 'video', url: content.url, ...(content.caption ? { caption: content.caption } : {}) };
    case 'sticker':
      return { ...context, type: 'sticker', url: content.url };
    case 'location':
      return {
        type: 'location',
        latitude: String(content.latitude),
        longitude: String(content.longitude),
        ...(content.name ? { name: content.name } : {}),
        ...(content.address ? { address: content.address } : {}),
      };
    case 'quick_reply':
      return {
        type: 'quick_reply',
        msgid: content.msgId,
        content: {
          type: 'text',
          text: content.text,
          ...(content.header ? { header: content.header } : {}),
          ...(content.footer ? { caption: content.footer } : {}),
        },
        options: content.options.map((option) => ({ type: 'text', title: option.title, postbackText: option.postbackText })),
      };
    case 'list':
      return {
        type: 'list',
        title: content.title,
        body: content.body,
        msgid: content.msgId,
        globalButtons: [{ type: 'text', title: content.buttonTitle }],
        items: [
          {
            title: content.title,
            subtitle: content.title,
            options: content.options.map((option) => ({
              type: 'text',
              title: option.title,
              ...(option.description ? { description: option.description } : {}),
              postbackText: option.postbackText,
            })),
          },
        ],
      };
  }
}

/** The `template` and optional `message` form fields of a template send. */
export function toGupshupTemplateFields(content: Extract<OutboundContent, { type: 'template' }>): Record<string, string> {
  const fields: Record<string, string> = { template: JSON.stringify({ id: content.templateProviderId, params: content.params }) };
  if (content.headerMedia) {
    const { type, url, fileName } = content.headerMedia;
    fields.message = JSON.stringify({ type, [type]: { link: url, ...(type === 'document' && fileName ? { filename: fileName } : {}) } });
  }
  return fields;
}
