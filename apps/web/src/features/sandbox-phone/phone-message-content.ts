import type { RenderedTemplate } from '@embudo/contracts/http/templates';
import type { PhoneMessage } from '@embudo/contracts/http/sandbox-phone';

export interface ReplyOption {
  title: string;
  description?: string;
  postbackText?: string;
}

/** What a phone message shows, whichever side wrote it and however its payload is shaped. */
export type PhoneMessageContent =
  | { kind: 'text'; text: string }
  | { kind: 'image'; url: string; caption?: string }
  | { kind: 'video'; url: string; caption?: string }
  | { kind: 'audio'; url: string; voice: boolean }
  | { kind: 'document'; url: string; fileName: string; caption?: string }
  | { kind: 'sticker'; url: string }
  | { kind: 'location'; latitude: string; longitude: string; name?: string; address?: string }
  | { kind: 'quick_reply'; msgId?: string; header?: string; text: string; footer?: string; mediaUrl?: string; options: ReplyOption[] }
  | {
      kind: 'list';
      msgId?: string;
      title?: string;
      body: string;
      footer?: string;
      buttonTitle: string;
      sections: Array<{ title?: string; options: ReplyOption[] }>;
    }
  | { kind: 'template'; templateId: string; params: string[]; media?: { type: string; url: string }; rendered?: RenderedTemplate }
  | { kind: 'reply'; title: string; description?: string }
  | { kind: 'unknown'; type: string };

type Json = Record<string, unknown>;

function record(value: unknown): Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {};
}

function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value || undefined;
  if (typeof value === 'number') return String(value);
  return undefined;
}

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '0.0.0.0', '[::1]']);
const SERVER_MEDIA_PATHS = ['/media/', '/sandbox-gupshup/', '/sandbox-meta/'];

/**
 * The sandbox runs inside the server that serves this page, so its files (and the business's media)
 * are on this origin. The server names them by its internal or public address, which the page's
 * content security policy would treat as another origin: those become same-origin paths.
 */
export function sameOriginMediaUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url, window.location.origin);
  } catch {
    return url;
  }
  if (parsed.origin === window.location.origin) return `${parsed.pathname}${parsed.search}`;
  if (LOCAL_HOSTS.has(parsed.hostname) || SERVER_MEDIA_PATHS.some((prefix) => parsed.pathname.startsWith(prefix))) return `${parsed.pathname}${parsed.search}`;
  return url;
}

function media(url: unknown) {
  const found = text(url);
  return found ? sameOriginMediaUrl(found) : undefined;
}

function options(value: unknown): ReplyOption[] {
  return list(value).flatMap((item) => {
    const option = record(item);
    const title = text(option.title);
    return title ? [{ title, description: text(option.description), postbackText: text(option.postbackText) }] : [];
  });
}

/** The fake's rendering, with its header file made same-origin like every other media URL. */
function renderedTemplate(rendered: RenderedTemplate | undefined): RenderedTemplate | undefined {
  if (!rendered) return undefined;
  const header = rendered.header;
  if (!header || header.type === 'TEXT') return rendered;
  return { ...rendered, header: { type: header.type, url: media(header.url) } };
}

/** A message the business sent: Gupshup's `message` JSON (or `{template, message?}` for a template). */
function businessContent(type: string, body: Json, rendered?: RenderedTemplate): PhoneMessageContent {
  if (type === 'template' || 'template' in body) {
    const template = record(body.template);
    const header = record(body.message);
    const headerType = text(header.type);
    const headerUrl = headerType ? media(record(header[headerType]).link) : undefined;
    return {
      kind: 'template',
      templateId: text(template.id) ?? '',
      params: list(template.params).map((param) => text(param) ?? ''),
      ...(headerType && headerUrl ? { media: { type: headerType, url: headerUrl } } : {}),
      ...(rendered ? { rendered: renderedTemplate(rendered) } : {}),
    };
  }
  const kind = text(body.type) ?? type;
  switch (kind) {
    case 'text':
      return { kind: 'text', text: text(body.text) ?? '' };
    case 'image': {
      const url = media(body.originalUrl) ?? media(body.previewUrl) ?? media(body.url);
      return url ? { kind: 'image', url, caption: text(body.caption) } : { kind: 'unknown', type: kind };
    }
    case 'video': {
      const url = media(body.url);
      return url ? { kind: 'video', url, caption: text(body.caption) } : { kind: 'unknown', type: kind };
    }
    case 'audio': {
      const url = media(body.url);
      return url ? { kind: 'audio', url, voice: false } : { kind: 'unknown', type: kind };
    }
    case 'file': {
      const url = media(body.url);
      return url ? { kind: 'document', url, fileName: text(body.filename) ?? 'documento', caption: text(body.caption) } : { kind: 'unknown', type: kind };
    }
    case 'sticker': {
      const url = media(body.url);
      return url ? { kind: 'sticker', url } : { kind: 'unknown', type: kind };
    }
    case 'location':
      return {
        kind: 'location',
        latitude: text(body.latitude) ?? '',
        longitude: text(body.longitude) ?? '',
        name: text(body.name),
        address: text(body.address),
      };
    case 'quick_reply': {
      const content = record(body.content);
      return {
        kind: 'quick_reply',
        msgId: text(body.msgid),
        header: text(content.header),
        text: text(content.text) ?? '',
        footer: text(content.caption),
        mediaUrl: content.type !== 'text' ? media(content.url) : undefined,
        options: options(body.options),
      };
    }
    case 'list': {
      const globalButton = record(list(body.globalButtons)[0]);
      return {
        kind: 'list',
        msgId: text(body.msgid),
        title: text(body.title),
        body: text(body.body) ?? '',
        footer: text(body.footer),
        buttonTitle: text(globalButton.title) ?? 'Ver opciones',
        sections: list(body.items).map((item) => ({ title: text(record(item).title), options: options(record(item).options) })),
      };
    }
    default:
      return { kind: 'unknown', type: kind };
  }
}

/** A message the customer sent: the inbound payload the sandbox built for the webhook. */
function customerContent(type: string, body: Json): PhoneMessageContent {
  switch (type) {
    case 'text':
      return { kind: 'text', text: text(body.text) ?? '' };
    case 'image':
    case 'video': {
      const url = media(body.url);
      return url ? { kind: type, url, caption: text(body.caption) } : { kind: 'unknown', type };
    }
    case 'sticker': {
      const url = media(body.url);
      return url ? { kind: 'sticker', url } : { kind: 'unknown', type };
    }
    case 'audio': {
      const url = media(body.url);
      // The sandbox marks a recorded voice note as ogg/opus, the way WhatsApp delivers them.
      return url ? { kind: 'audio', url, voice: text(body.contentType)?.includes('opus') ?? false } : { kind: 'unknown', type };
    }
    case 'file': {
      const url = media(body.url);
      return url ? { kind: 'document', url, fileName: text(body.name) ?? 'documento', caption: text(body.caption) } : { kind: 'unknown', type };
    }
    case 'location':
      return {
        kind: 'location',
        latitude: text(body.latitude) ?? '',
        longitude: text(body.longitude) ?? '',
        name: text(body.name),
        address: text(body.address),
      };
    case 'button_reply':
    case 'list_reply':
      return { kind: 'reply', title: text(body.title) ?? '', description: text(body.description) };
    case 'quick_reply':
      return { kind: 'reply', title: text(body.text) ?? '' };
    default:
      return text(body.text) ? { kind: 'text', text: text(body.text) ?? '' } : { kind: 'unknown', type };
  }
}

export function phoneMessageContent(message: Pick<PhoneMessage, 'direction' | 'type' | 'body' | 'template'>): PhoneMessageContent {
  const body = record(message.body);
  return message.direction === 'to_customer' ? businessContent(message.type, body, message.template) : customerContent(message.type, body);
}

/** The message a business reply quotes (Gupshup's `context.msgId`: a customer message's id or a business message's WhatsApp id). */
export function quotedMessageOf(message: Pick<PhoneMessage, 'direction' | 'body'>, conversation: PhoneMessage[]): PhoneMessage | undefined {
  if (message.direction !== 'to_customer') return undefined;
  const msgId = text(record(message.body.context).msgId);
  return msgId ? conversation.find((candidate) => candidate.id === msgId || candidate.whatsappId === msgId) : undefined;
}

/** One line of a message, as WhatsApp shows it inside a quote. */
export function phoneMessagePreview(message: Pick<PhoneMessage, 'direction' | 'type' | 'body' | 'template'>): string {
  const content = phoneMessageContent(message);
  switch (content.kind) {
    case 'text':
      return content.text;
    case 'image':
      return content.caption ?? 'Foto';
    case 'video':
      return content.caption ?? 'Video';
    case 'audio':
      return content.voice ? 'Nota de voz' : 'Audio';
    case 'document':
      return content.fileName;
    case 'sticker':
      return 'Sticker';
    case 'location':
      return content.name ?? 'Ubicación';
    case 'quick_reply':
      return content.text;
    case 'list':
      return content.body;
    case 'template':
      return content.rendered?.body ?? `Plantilla ${content.templateId}`;
    case 'reply':
      return content.title;
    case 'unknown':
      return `Mensaje de tipo «${content.type}»`;
  }
}
