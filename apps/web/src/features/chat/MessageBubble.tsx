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
  onOpenImage?: (url: string) => void;
}

/** One message of the timeline: incoming on the left, ours (user or AI) on the right with ticks. */
export function MessageBubble({ message, isGroup = false, onReply, onOpenImage }: MessageBubbleProps) {
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
            {message.errorCode ? ` (código ${message.errorCode})` : ''}
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
        <MessageReactions reactions={reactions} outgoing={outgoing} isGroup={isGroup} />
      </div>
    </div>
  );
}
