import { useState, type ReactNode } from 'react';
import { LineIcon } from '../../shared/ui/LineIcon.tsx';
import { DeliveryTicks } from './DeliveryTicks.tsx';
import { PhoneMessageEditor } from './PhoneMessageEditor.tsx';
import { PhoneMessageMenu } from './PhoneMessageMenu.tsx';
import { phoneMessageContent, type PhoneMessageContent, type ReplyOption } from './phone-message-content.ts';
import type { RenderedTemplate } from '@embudo/contracts/http/templates';
import type { CustomerChangeInput, CustomerMessageInput, PhoneMessage } from '@embudo/contracts/http/sandbox-phone';

export type InteractiveReply = Extract<CustomerMessageInput, { kind: 'button_reply' | 'list_reply' | 'quick_reply' }>;

export interface PhoneMessageBubbleProps {
  message: PhoneMessage;
  /** The message this one replies to, as WhatsApp shows it above the reply. */
  quote?: { author: string; text: string };
  /** Called when the customer taps a quick-reply button or a list option. */
  onReply?: (reply: InteractiveReply) => void;
  /** Blocks the buttons while a reply is on its way. */
  replying?: boolean;
  /** Called when the customer reacts to the message, or edits or deletes it; without it the bubble has no menu. */
  onChange?: (change: CustomerChangeInput) => void;
  /** The customer wrote it (and may edit or delete it). */
  ownMessage?: boolean;
  /** Blocks the menu while a change is on its way. */
  changing?: boolean;
}

const timeFormat = new Intl.DateTimeFormat('es', { hour: '2-digit', minute: '2-digit' });

function timeOf(iso: string) {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : timeFormat.format(date);
}

function Caption({ children }: { children?: string }) {
  return children ? <p className="mt-1.5 px-1 whitespace-pre-wrap">{children}</p> : null;
}

function MediaFrame({ children }: { children: ReactNode }) {
  return <div className="-mx-1 -mt-0.5 overflow-hidden rounded-md bg-black/5">{children}</div>;
}

function DocumentLink({ url, fileName }: { url: string; fileName: string }) {
  return (
    <a href={url} target="_blank" rel="noreferrer" download={fileName} className="flex items-center gap-3 rounded-md bg-black/5 px-3 py-2.5 hover:bg-black/10">
      <span className="grid size-9 shrink-0 place-items-center rounded bg-rose-500 text-[10px] font-bold text-white uppercase" aria-hidden="true">
        {fileName.split('.').pop()?.slice(0, 4) || 'doc'}
      </span>
      <span className="min-w-0 truncate font-medium text-sky-700 underline-offset-2 hover:underline">{fileName}</span>
    </a>
  );
}

function ListOptions({
  content,
  onPick,
  disabled,
}: {
  content: Extract<PhoneMessageContent, { kind: 'list' }>;
  onPick?: (option: ReplyOption) => void;
  disabled: boolean;
}) {
  const [open, setOpen] = useState(false);
  return (
    <div className="mt-1 border-t border-black/10 pt-1">
      <button
        type="button"
        aria-expanded={open}
        onClick={() => setOpen((value) => !value)}
        className="flex w-full items-center justify-center gap-2 rounded py-1.5 text-sm font-medium text-sky-600 hover:bg-black/5"
      >
        <svg viewBox="0 0 20 20" className="size-4" fill="currentColor" aria-hidden="true">
          <path d="M3 5h2v2H3zm4 0h10v2H7zm-4 4h2v2H3zm4 0h10v2H7zm-4 4h2v2H3zm4 0h10v2H7z" />
        </svg>
        {content.buttonTitle}
      </button>
      {open && (
        <div className="mt-1 space-y-2 rounded-md bg-slate-50 p-2">
          {content.sections.map((section, index) => (
            <div key={index}>
              {section.title && <p className="px-2 pb-1 text-xs font-semibold tracking-wide text-emerald-700 uppercase">{section.title}</p>}
              <ul className="divide-y divide-slate-200">
                {section.options.map((option) => (
                  <li key={option.title}>
                    <button
                      type="button"
                      disabled={disabled || !onPick}
                      onClick={() => onPick?.(option)}
                      className="w-full rounded px-2 py-2 text-left hover:bg-white disabled:cursor-not-allowed disabled:opacity-60"
                    >
                      <span className="block text-sm text-slate-900">{option.title}</span>
                      {option.description && <span className="block text-xs text-slate-500">{option.description}</span>}
                    </button>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </div>
      )}
    </div>
  );
}

function RenderedTemplateBody({ template }: { template: RenderedTemplate }) {
  const header = template.header;
  return (
    <div className="px-1" data-testid="phone-template">
      {header?.type === 'TEXT' && <p className="font-semibold">{header.text}</p>}
      {header &&
        header.type !== 'TEXT' &&
        header.url &&
        (header.type === 'IMAGE' ? (
          <MediaFrame>
            <img src={header.url} alt="Encabezado de la plantilla" className="max-h-56 w-full object-cover" />
          </MediaFrame>
        ) : header.type === 'VIDEO' ? (
          <MediaFrame>
            <video src={header.url} controls className="max-h-56 w-full" aria-label="Encabezado de la plantilla" />
          </MediaFrame>
        ) : (
          <DocumentLink url={header.url} fileName={`${template.name}.pdf`} />
        ))}
      <p className="mt-1 whitespace-pre-wrap">{template.body}</p>
      {template.footer && <p className="mt-1 text-xs text-slate-500">{template.footer}</p>}
    </div>
  );
}

/** A template's buttons under its bubble, as WhatsApp shows them: replies to tap, links and calls to open. */
function TemplateButtons({
  buttons,
  onReply,
  replying,
}: {
  buttons: RenderedTemplate['buttons'];
  onReply?: PhoneMessageBubbleProps['onReply'];
  replying: boolean;
}) {
  const style =
    'flex items-center justify-center gap-1.5 rounded-lg bg-white px-3 py-2 text-center text-sm font-medium text-sky-600 shadow-sm hover:bg-slate-50';
  return (
    <div className="mt-1 flex w-full max-w-[85%] flex-col gap-1" aria-label="Botones de la plantilla" role="group">
      {buttons.map((button, index) =>
        button.type === 'URL' && button.url ? (
          <a key={index} href={button.url} target="_blank" rel="noreferrer" className={style}>
            {button.text}
          </a>
        ) : button.type === 'PHONE_NUMBER' && button.phone_number ? (
          <a key={index} href={`tel:${button.phone_number}`} className={style}>
            {button.text}
          </a>
        ) : (
          <button
            key={index}
            type="button"
            disabled={replying || !onReply}
            onClick={() => onReply?.({ kind: 'quick_reply', text: button.text })}
            className={`${style} disabled:cursor-not-allowed disabled:opacity-60`}
          >
            {button.text}
          </button>
        ),
      )}
    </div>
  );
}

function Body({ content, onReply, replying }: { content: PhoneMessageContent; onReply?: PhoneMessageBubbleProps['onReply']; replying: boolean }) {
  switch (content.kind) {
    case 'text':
      return <p className="px-1 whitespace-pre-wrap">{content.text}</p>;
    case 'image':
      return (
        <>
          <MediaFrame>
            <a href={content.url} target="_blank" rel="noreferrer">
              <img src={content.url} alt={content.caption ?? 'Imagen'} className="max-h-72 w-full object-cover" />
            </a>
          </MediaFrame>
          <Caption>{content.caption}</Caption>
        </>
      );
    case 'video':
      return (
        <>
          <MediaFrame>
            <video src={content.url} controls className="max-h-72 w-full" aria-label={content.caption ?? 'Video'} />
          </MediaFrame>
          <Caption>{content.caption}</Caption>
        </>
      );
    case 'audio':
      return (
        <div className="flex items-center gap-2">
          {content.voice && (
            <span className="grid size-8 shrink-0 place-items-center rounded-full bg-emerald-500 text-white" title="Nota de voz" aria-hidden="true">
              <svg viewBox="0 0 20 20" className="size-4" fill="currentColor">
                <path d="M10 2a3 3 0 0 0-3 3v5a3 3 0 0 0 6 0V5a3 3 0 0 0-3-3Zm-5 8a5 5 0 0 0 4.25 4.94V17h1.5v-2.06A5 5 0 0 0 15 10h-1.5a3.5 3.5 0 0 1-7 0Z" />
              </svg>
            </span>
          )}
          <audio src={content.url} controls className="h-10 w-56 max-w-full" aria-label={content.voice ? 'Nota de voz' : 'Audio'} />
        </div>
      );
    case 'document':
      return (
        <>
          <DocumentLink url={content.url} fileName={content.fileName} />
          <Caption>{content.caption}</Caption>
        </>
      );
    case 'sticker':
      return <img src={content.url} alt="Sticker" className="size-32 object-contain" />;
    case 'location': {
      const query = `${content.latitude},${content.longitude}`;
      return (
        <a
          href={`https://www.google.com/maps?q=${encodeURIComponent(query)}`}
          target="_blank"
          rel="noreferrer"
          className="block rounded-md bg-emerald-50 px-3 py-2.5 hover:bg-emerald-100"
        >
          <span className="flex items-center gap-1.5 font-medium text-emerald-800">
            <svg viewBox="0 0 20 20" className="size-4" fill="currentColor" aria-hidden="true">
              <path fillRule="evenodd" d="M10 18s6-5.3 6-10a6 6 0 1 0-12 0c0 4.7 6 10 6 10Zm0-7.5a2.5 2.5 0 1 0 0-5 2.5 2.5 0 0 0 0 5Z" clipRule="evenodd" />
            </svg>
            {content.name ?? 'Ubicación'}
          </span>
          {content.address && <span className="mt-0.5 block text-xs text-slate-600">{content.address}</span>}
          <span className="mt-0.5 block text-xs text-slate-500 tabular-nums">{query}</span>
        </a>
      );
    }
    case 'quick_reply':
      return (
        <div className="px-1">
          {content.mediaUrl && (
            <MediaFrame>
              <img src={content.mediaUrl} alt="" className="max-h-56 w-full object-cover" />
            </MediaFrame>
          )}
          {content.header && <p className="font-semibold">{content.header}</p>}
          <p className="whitespace-pre-wrap">{content.text}</p>
          {content.footer && <p className="mt-1 text-xs text-slate-500">{content.footer}</p>}
        </div>
      );
    case 'list':
      return (
        <div className="px-1">
          {content.title && <p className="font-semibold">{content.title}</p>}
          <p className="whitespace-pre-wrap">{content.body}</p>
          {content.footer && <p className="mt-1 text-xs text-slate-500">{content.footer}</p>}
          <ListOptions
            content={content}
            disabled={replying}
            onPick={onReply && ((option) => onReply({ kind: 'list_reply', title: option.title, id: content.msgId, postbackText: option.postbackText }))}
          />
        </div>
      );
    case 'template':
      if (content.rendered) return <RenderedTemplateBody template={content.rendered} />;
      return (
        <div className="px-1">
          {content.media?.type === 'image' ? (
            <MediaFrame>
              <img src={content.media.url} alt="Encabezado de la plantilla" className="max-h-56 w-full object-cover" />
            </MediaFrame>
          ) : content.media?.type === 'video' ? (
            <MediaFrame>
              <video src={content.media.url} controls className="max-h-56 w-full" aria-label="Encabezado de la plantilla" />
            </MediaFrame>
          ) : content.media ? (
            <DocumentLink url={content.media.url} fileName="documento" />
          ) : null}
          <p className="flex items-center gap-1.5 font-semibold">
            <svg viewBox="0 0 20 20" className="size-4 text-emerald-600" fill="currentColor" aria-hidden="true">
              <path d="M4 3h9l3 3v11H4zm2 5v1.5h8V8zm0 3v1.5h8V11zm0 3v1.5h5V14z" />
            </svg>
            Plantilla {content.templateId}
          </p>
          {content.params.length > 0 && (
            <ol className="mt-1.5 space-y-1 text-sm">
              {content.params.map((param, index) => (
                <li key={index} className="flex gap-2">
                  <span className="shrink-0 rounded bg-slate-100 px-1.5 font-mono text-xs leading-5 text-slate-500">{`{{${index + 1}}}`}</span>
                  <span className="break-words">{param}</span>
                </li>
              ))}
            </ol>
          )}
        </div>
      );
    case 'reply':
      return (
        <div className="px-1">
          <p className="flex items-center gap-1.5">
            <svg viewBox="0 0 20 20" className="size-3.5 shrink-0 text-slate-500" fill="currentColor" aria-hidden="true">
              <path d="M8 5V2L2 8l6 6v-3c4 0 7 1 9 5-1-5-4-10-9-11Z" />
            </svg>
            {content.title}
          </p>
          {content.description && <p className="text-xs text-slate-500">{content.description}</p>}
        </div>
      );
    case 'unknown':
      return <p className="px-1 text-slate-500 italic">Mensaje de tipo «{content.type}»</p>;
  }
}

/** One message on the sandbox phone: the business on the left, the customer on the right, as on WhatsApp. */
export function PhoneMessageBubble({ message, quote, onReply, replying = false, onChange, ownMessage = false, changing = false }: PhoneMessageBubbleProps) {
  const [editing, setEditing] = useState(false);
  const content = phoneMessageContent(message);
  const fromBusiness = message.direction === 'to_customer';
  const options = content.kind === 'quick_reply' ? content.options : [];
  // What the customer did to it later, kept on the message by the fake (see phoneMessageSchema).
  const deleted = message.body.deleted === true;
  const edited = message.body.edited === true && !deleted;
  const reaction = typeof message.body.reaction === 'string' && !deleted ? message.body.reaction : undefined;
  const editable = ownMessage && content.kind === 'text';

  return (
    <div
      data-testid="phone-message"
      data-direction={message.direction}
      data-type={message.type}
      className={`group flex flex-col ${fromBusiness ? 'items-start' : 'items-end'} ${reaction ? 'mb-4' : ''}`}
    >
      <div
        className={`relative max-w-[85%] rounded-lg px-2 pt-1.5 pb-1 text-sm text-slate-900 shadow-sm ${
          fromBusiness ? 'rounded-tl-none bg-white' : 'rounded-tr-none bg-[#d9fdd3]'
        } ${!deleted && (content.kind === 'image' || content.kind === 'video' || content.kind === 'template') ? 'min-w-52' : ''} ${editing ? 'w-72' : ''}`}
      >
        {!fromBusiness && message.participant && (
          <p className="px-1 pb-0.5 text-xs font-semibold text-emerald-700">{message.participant.name ?? message.participant.phone}</p>
        )}
        {quote && !deleted && (
          <div data-testid="phone-quote" className="mb-1 rounded-md border-l-4 border-emerald-500 bg-black/5 px-2 py-1 text-xs">
            <p className="font-semibold text-emerald-700">{quote.author}</p>
            <p className="line-clamp-2 text-slate-600">{quote.text}</p>
          </div>
        )}
        {deleted ? (
          <p data-testid="phone-message-deleted" className="flex items-center gap-1 px-1 text-slate-500 italic">
            <LineIcon name="ban" className="size-4" />
            Mensaje eliminado
          </p>
        ) : editing && content.kind === 'text' ? (
          <PhoneMessageEditor
            text={content.text}
            onCancel={() => setEditing(false)}
            onSave={(text) => {
              setEditing(false);
              onChange?.({ kind: 'edit', messageId: message.id, text });
            }}
          />
        ) : (
          <Body content={content} onReply={onReply} replying={replying} />
        )}
        <p className="mt-0.5 flex items-center justify-end gap-1 pl-6 text-[11px] text-slate-500 tabular-nums">
          {edited && <span data-testid="phone-message-edited">Editado</span>}
          <time dateTime={message.createdAt}>{timeOf(message.createdAt)}</time>
          <DeliveryTicks status={message.status} />
        </p>
        {onChange && !deleted && !editing && (
          <PhoneMessageMenu
            side={fromBusiness ? 'left' : 'right'}
            reaction={reaction}
            canEdit={editable}
            canDelete={ownMessage}
            disabled={changing}
            onReact={(emoji) => onChange({ kind: 'reaction', messageId: message.id, emoji })}
            onEdit={() => setEditing(true)}
            onDelete={() => onChange({ kind: 'delete', messageId: message.id })}
          />
        )}
        {reaction && (
          <span
            data-testid="phone-reaction"
            aria-label={`Tu reacción: ${reaction}`}
            className={`absolute -bottom-4 ${fromBusiness ? 'left-2' : 'right-2'} flex h-6 items-center rounded-full bg-white px-1.5 text-sm leading-none shadow-sm ring-1 ring-slate-200`}
          >
            {reaction}
          </span>
        )}
      </div>
      {content.kind === 'template' && content.rendered && content.rendered.buttons.length > 0 && (
        <TemplateButtons buttons={content.rendered.buttons} onReply={onReply} replying={replying} />
      )}
      {options.length > 0 && content.kind === 'quick_reply' && (
        <div className="mt-1 flex w-full max-w-[85%] flex-col gap-1">
          {options.map((option) => (
            <button
              key={option.title}
              type="button"
              disabled={replying || !onReply}
              onClick={() => onReply?.({ kind: 'button_reply', title: option.title, id: content.msgId, postbackText: option.postbackText })}
              className="rounded-lg bg-white px-3 py-2 text-center text-sm font-medium text-sky-600 shadow-sm hover:bg-slate-50 disabled:cursor-not-allowed disabled:opacity-60"
            >
              {option.title}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
