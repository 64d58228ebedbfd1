import { LineIcon } from '../../shared/ui/LineIcon.tsx';
import type { ChatMessage } from './chat.api.ts';
import { FlowReplyBlock, flowReplyOf } from './FlowReplyBlock.tsx';
import { asRecord } from './message-payload.ts';
import { OrderMessage } from './OrderMessage.tsx';

/**
 * Images and videos take a fixed box before they load, so the timeline's height is known when
 * it scrolls to the newest message; the full picture opens in the lightbox.
 */
const MEDIA_BOX = 'block h-48 w-64 max-w-full';

const MEDIA_TYPES = new Set(['image', 'video', 'audio', 'sticker', 'document']);
const KNOWN_TYPES = new Set([...MEDIA_TYPES, 'text', 'location', 'template', 'interactive', 'quick_reply', 'order']);

interface LocationPayload {
  latitude: number;
  longitude: number;
  name?: string | null;
  address?: string | null;
}

function locationOf(message: ChatMessage): LocationPayload | null {
  const location = asRecord(message.payload?.location) ?? asRecord(message.payload);
  const latitude = Number(location?.latitude);
  const longitude = Number(location?.longitude);
  if (!location || !Number.isFinite(latitude) || !Number.isFinite(longitude)) return null;
  return {
    latitude,
    longitude,
    name: typeof location.name === 'string' ? location.name : null,
    address: typeof location.address === 'string' ? location.address : null,
  };
}

/** A stored quick-reply object (spec 01 §3 Message): its options are shown by title. */
function quickReplyTitles(message: ChatMessage): string[] {
  const payload = message.payload;
  const holder = asRecord(payload?.quickReply) ?? asRecord(payload?.quick_reply) ?? payload;
  const options = holder?.options;
  if (!Array.isArray(options)) return [];
  return options.map((option) => (typeof option === 'string' ? option : String(asRecord(option)?.title ?? ''))).filter(Boolean);
}

interface SentTemplate {
  header: { type: string; text?: string; media_url?: string } | null;
  footer: string | null;
  buttons: Array<{ type: string; text: string; url?: string; phone_number?: string }>;
}

/** A sent template keeps its header, footer and buttons beside the filled body (payload.template). */
function sentTemplateOf(message: ChatMessage): SentTemplate | null {
  const template = asRecord(message.payload?.template);
  if (!template) return null;
  const header = asRecord(template.header);
  const buttons = Array.isArray(template.buttons) ? template.buttons.map(asRecord).filter((button): button is Record<string, unknown> => Boolean(button)) : [];
  return {
    header:
      header && typeof header.type === 'string'
        ? {
            type: header.type,
            text: typeof header.text === 'string' ? header.text : undefined,
            media_url: typeof header.media_url === 'string' ? header.media_url : undefined,
          }
        : null,
    footer: typeof template.footer === 'string' ? template.footer : null,
    buttons: buttons.map((button) => ({
      type: String(button.type ?? ''),
      text: String(button.text ?? ''),
      url: typeof button.url === 'string' ? button.url : undefined,
      phone_number: typeof button.phone_number === 'string' ? button.phone_number : undefined,
    })),
  };
}

function TemplateHeader({ header }: { header: NonNullable<SentTemplate['header']> }) {
  if (header.type === 'TEXT') return header.text ? <p className="mb-1 font-semibold">{header.text}</p> : null;
  if (!header.media_url) return null;
  if (header.type === 'IMAGE')
    return <img src={header.media_url} alt="Encabezado de la plantilla" className={`mb-1 rounded-lg object-cover ${MEDIA_BOX}`} loading="lazy" />;
  if (header.type === 'VIDEO')
    return <video src={header.media_url} controls preload="metadata" className={`mb-1 rounded-lg bg-black object-contain ${MEDIA_BOX}`} />;
  return (
    <a
      href={header.media_url}
      target="_blank"
      rel="noreferrer"
      className="mb-1 inline-flex items-center gap-2 rounded-lg bg-black/5 px-3 py-2 text-sm font-medium text-sky-700 hover:underline"
    >
      Documento
    </a>
  );
}

function TemplateMessage({ message }: { message: ChatMessage }) {
  const template = sentTemplateOf(message);
  return (
    <div data-testid="template-message">
      {template?.header && <TemplateHeader header={template.header} />}
      {message.text && <p className="whitespace-pre-wrap break-words">{message.text}</p>}
      {template?.footer && <p className="mt-1 text-xs text-slate-500">{template.footer}</p>}
      {template && template.buttons.length > 0 && (
        <ul className="mt-2 space-y-1" aria-label="Botones de la plantilla">
          {template.buttons.map((button, index) => (
            <li key={`${button.text}-${index}`} className="rounded-md border border-sky-200 bg-white/70 px-2 py-1 text-center text-xs font-medium text-sky-700">
              {button.text}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function Caption({ text }: { text: string | null | undefined }) {
  return text ? <p className="mt-1 whitespace-pre-wrap break-words">{text}</p> : null;
}

/** The body of one message by type (spec 01 §2 Chat view). */
export function MessageContent({ message, onOpenImage }: { message: ChatMessage; onOpenImage?: (url: string) => void }) {
  const { type, mediaUrl, text } = message;
  const options = quickReplyTitles(message);

  if (!KNOWN_TYPES.has(type)) return <p className="text-sm italic text-slate-500">Unsupported media</p>;
  if (MEDIA_TYPES.has(type) && !mediaUrl) {
    return (
      <>
        <p className="text-sm italic text-slate-500">Media URL no disponible.</p>
        <Caption text={text} />
      </>
    );
  }

  switch (type) {
    case 'image':
      return (
        <>
          <button type="button" onClick={() => onOpenImage?.(mediaUrl!)} className="block overflow-hidden rounded-lg" aria-label="Ver imagen">
            <img src={mediaUrl!} alt={text || 'Imagen'} className={`object-cover ${MEDIA_BOX}`} loading="lazy" />
          </button>
          <Caption text={text} />
        </>
      );
    case 'sticker':
      return <img src={mediaUrl!} alt="Sticker" className="size-32 object-contain" loading="lazy" />;
    case 'video':
      return (
        <>
          <video src={mediaUrl!} controls preload="metadata" className={`rounded-lg bg-black object-contain ${MEDIA_BOX}`} />
          <Caption text={text} />
        </>
      );
    case 'audio':
      return (
        <>
          <audio src={mediaUrl!} controls preload="metadata" className="w-64 max-w-full" data-testid="audio-player" />
          {message.transcript && (
            <p data-testid="voice-transcript" className="mt-1 max-w-64 whitespace-pre-wrap break-words text-xs text-slate-600">
              <span className="font-semibold">Transcripción: </span>
              {message.transcript}
            </p>
          )}
        </>
      );
    case 'document':
      return (
        <>
          <a
            href={mediaUrl!}
            target="_blank"
            rel="noreferrer"
            download={message.fileName ?? true}
            className="inline-flex items-center gap-2 rounded-lg bg-black/5 px-3 py-2 text-sm font-medium text-sky-700 hover:underline"
          >
            <svg viewBox="0 0 20 20" className="size-4" fill="currentColor" aria-hidden="true">
              <path d="M4 2h8l4 4v12H4zM12 2v4h4" />
            </svg>
            {message.fileName || 'Documento'}
          </a>
          <Caption text={text} />
        </>
      );
    case 'location': {
      const location = locationOf(message);
      if (!location) return <p className="text-sm italic text-slate-500">Ubicación no disponible.</p>;
      const href = `https://www.google.com/maps?q=${location.latitude},${location.longitude}`;
      return (
        <a href={href} target="_blank" rel="noreferrer" className="block text-sm text-sky-700 hover:underline" data-testid="location-link">
          <LineIcon name="pin" className="mr-1 size-4 align-[-3px]" />
          {location.name || 'Ubicación'}
          {location.address && <span className="block text-xs text-slate-500">{location.address}</span>}
          <span className="block text-xs text-slate-500">
            {location.latitude.toFixed(5)}, {location.longitude.toFixed(5)}
          </span>
        </a>
      );
    }
    case 'template':
      return <TemplateMessage message={message} />;
    case 'order':
      return <OrderMessage message={message} />;
    default: {
      // A flow's answer also comes as "label: value" lines of text; the block shows the same, laid out.
      const flowReply = flowReplyOf(message);
      if (flowReply) return <FlowReplyBlock reply={flowReply} />;
      return (
        <>
          {text && <p className="whitespace-pre-wrap break-words">{text}</p>}
          {options.length > 0 && (
            <ul className="mt-2 space-y-1" aria-label="Opciones">
              {options.map((title, index) => (
                <li key={`${title}-${index}`} className="rounded-md border border-sky-200 bg-white/70 px-2 py-1 text-center text-xs font-medium text-sky-700">
                  {title}
                </li>
              ))}
            </ul>
          )}
        </>
      );
    }
  }
}
