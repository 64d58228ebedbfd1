import { useState } from 'react';
import { LineIcon } from '../../shared/ui/LineIcon.tsx';
import { AckTicks } from './AckTicks.tsx';
import { AdReferralBlock, referralOf } from './AdReferralBlock.tsx';
import type { ChatMessage } from './chat.api.ts';
import { MessageContent } from './MessageContent.tsx';
import { MessageReactions } from './MessageReactions.tsx';

export function formatTime(timestamp: string | number) {
  return new Date(timestamp).toLocaleTimeString('es', { hour: '2-digit', minute: '2-digit' });
}

export function senderLabel(sender: string | null | undefined) {
  if (sender === 'contact') return 'Contacto';
  if (sender === 'ai') return 'AI';
  if (sender === 'user') return 'Tú';
  return sender ?? '';
}

interface MessageBubbleProps {
  message: ChatMessage;
  isGroup?: boolean;
  onReply?: (message: ChatMessage) => void;
  /** The member reacts under the message (null takes their reaction back). */
  onReact?: (message: ChatMessage, emoji: string | null) => void;
  onOpenImage?: (url: string) => void;
}

/** The reactions a member picks from, as WhatsApp offers them first. */
export const QUICK_REACTIONS = ['👍', '❤️', '😂', '😮', '😢', '🙏'];

/** A button beside the bubble: "Reaccionar" opens the quick reactions, each one a button of its own. */
function ReactionPicker({ message, outgoing, onReact }: { message: ChatMessage; outgoing: boolean; onReact: NonNullable<MessageBubbleProps['onReact']> }) {
  const [open, setOpen] = useState(false);
  const pick = (emoji: string | null) => {
    setOpen(false);
    onReact(message, emoji);
  };
  return (
    <div className={`absolute top-8 ${outgoing ? '-left-8' : '-right-8'}`} onKeyDown={(event) => event.key === 'Escape' && setOpen(false)}>
      <button
        type="button"
        onClick={() => setOpen((value) => !value)}
        className={`rounded-full p-1 text-slate-500 hover:bg-slate-200 hover:text-slate-700 focus:opacity-100 ${open ? 'opacity-100' : 'opacity-0 group-hover:opacity-100'}`}
        aria-label="Reaccionar"
        aria-expanded={open}
        title="Reaccionar"
      >
        <svg viewBox="0 0 20 20" className="size-4" fill="none" stroke="currentColor" strokeWidth="1.8" aria-hidden="true">
          <circle cx="10" cy="10" r="7" />
          <path d="M7 12a3.5 3.5 0 0 0 6 0M7.5 8h.01M12.5 8h.01" strokeLinecap="round" />
        </svg>
      </button>
      {open && (
        <div
          role="group"
          aria-label="Elige una reacción"
          data-testid="reaction-picker"
          className={`absolute z-10 mt-1 flex items-center gap-0.5 rounded-full bg-white px-1.5 py-1 shadow-lg ring-1 ring-slate-200 ${outgoing ? 'right-0' : 'left-0'}`}
        >
          {QUICK_REACTIONS.map((emoji) => (
            <button
              key={emoji}
              type="button"
              onClick={() => pick(emoji)}
              className="rounded-full px-1 text-lg hover:bg-slate-100"
              aria-label={`Reaccionar con ${emoji}`}
            >
              {emoji}
            </button>
          ))}
          <button
            type="button"
            onClick={() => pick(null)}
            className="ml-1 whitespace-nowrap rounded-full px-2 py-0.5 text-xs text-slate-700 hover:bg-slate-100"
          >
            Quitar mi reacción
          </button>
        </div>
      )}
    </div>
  );
}

/** One message of the timeline: incoming on the left, ours (user or AI) on the right with ticks. */
export function MessageBubble({ message, isGroup = false, onReply, onReact, onOpenImage }: MessageBubbleProps) {
  const outgoing = message.sender !== 'contact';
  const deleted = Boolean(message.deletedAt);
  const referral = deleted ? null : referralOf(message);
  const reactions = message.reactions ?? [];
  return (
    <div
      data-testid="chat-message"
      data-message-id={message.id}
      data-ack={message.ack}
      data-sender={message.sender}
      data-deleted={deleted || undefined}
      className={`group flex ${outgoing ? 'justify-end' : 'justify-start'} ${reactions.length > 0 ? 'mb-4' : ''}`}
    >
      <div
        className={`relative max-w-[80%] rounded-2xl px-3 py-2 text-sm shadow-sm ${
          outgoing
            ? message.sender === 'ai'
              ? 'bg-violet-100 text-slate-900'
              : 'bg-emerald-100 text-slate-900'
            : 'bg-white text-slate-900 ring-1 ring-slate-200'
        }`}
      >
        {!outgoing && isGroup && message.participantName && <p className="mb-0.5 text-xs font-semibold text-emerald-700">{message.participantName}</p>}
        {message.sender === 'ai' && (
          <p data-testid="ai-badge" className="mb-0.5 text-[10px] font-semibold uppercase tracking-wide text-violet-700">
            AI
          </p>
        )}
        {!deleted && (message.quotedMessageText || message.quotedMessageId) && (
          <div data-testid="quoted-preview" className="mb-1 rounded-lg border-l-4 border-emerald-500 bg-black/5 px-2 py-1 text-xs text-slate-600">
            <p className="font-semibold">{senderLabel(message.quotedMessageSender)}</p>
            <p className="line-clamp-2">{message.quotedMessageText || 'Mensaje'}</p>
          </div>
        )}
        {referral && <AdReferralBlock referral={referral} />}
        {deleted ? (
          <p data-testid="message-deleted" className="flex items-center gap-1 italic text-slate-600">
            <LineIcon name="ban" className="size-4" />
            Mensaje eliminado
          </p>
        ) : (
          <MessageContent message={message} onOpenImage={onOpenImage} />
        )}
        <div className="mt-1 flex items-center justify-end gap-1 text-[11px] text-slate-600">
          {message.editedAt && !deleted && (
            <span data-testid="message-edited" title={`Editado ${new Date(message.editedAt).toLocaleString('es')}`}>
              Editado
            </span>
          )}
          <span>{formatTime(message.timestamp || message.raw_timestamp)}</span>
          {outgoing && <AckTicks ack={message.ack} error={message.error} />}
        </div>
        {outgoing && message.ack === -1 && message.error && (
          <p data-testid="message-error" data-code={message.errorCode ?? undefined} className="mt-1 text-[11px] text-rose-700">
            No enviado: {message.error}
            {/* A reason for a code no table lists names the code already. */}
            {message.errorCode && !message.error.includes(message.errorCode) ? ` (código ${message.errorCode})` : ''}
          </p>
        )}
        {outgoing && message.ack === 0 && message.error && (
          <p data-testid="message-retrying" className="mt-1 text-[11px] text-amber-700">
            {message.error}
          </p>
        )}
        {onReply && !deleted && !message.id.startsWith('temp-') && (
          <button
            type="button"
            onClick={() => onReply(message)}
            className={`absolute top-1 ${outgoing ? '-left-8' : '-right-8'} rounded-full p-1 text-slate-400 opacity-0 group-hover:opacity-100 hover:bg-slate-200 hover:text-slate-700 focus:opacity-100`}
            aria-label="Responder"
            title="Responder"
          >
            <svg viewBox="0 0 20 20" className="size-4" fill="none" stroke="currentColor" strokeWidth="1.8" aria-hidden="true">
              <path d="M8 5 3 10l5 5M3 10h9a5 5 0 0 1 5 5v1" strokeLinecap="round" strokeLinejoin="round" />
            </svg>
          </button>
        )}
        {onReact && !deleted && !message.id.startsWith('temp-') && <ReactionPicker message={message} outgoing={outgoing} onReact={onReact} />}
        <MessageReactions reactions={reactions} outgoing={outgoing} isGroup={isGroup} />
      </div>
    </div>
  );
}
