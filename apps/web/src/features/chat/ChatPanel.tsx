import { useMutation } from '@tanstack/react-query';
import { useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import { errorMessageOr } from '../../shared/api-client/api-error.ts';
import { useOnJoin } from '../../shared/realtime-client/use-on-join.ts';
import { useSocketEvent } from '../../shared/realtime-client/use-socket-event.ts';
import { LineIcon } from '../../shared/ui/LineIcon.tsx';
import { Spinner } from '../../shared/ui/Spinner.tsx';
import { useModal } from '../../shared/ui/use-modal.ts';
import { useToast } from '../../shared/ui/use-toast.ts';
import type { CardSummary, Column } from '@embudo/contracts/http/funnels';
import { aiSwitchNote } from './ai-switch-note.ts';
import { CardContactLine } from '../board/CardContactLine.tsx';
import { chatApi, type ChatMessage, type MessageAck, type TimelineItem } from './chat.api.ts';
import { ChatComposer } from './ChatComposer.tsx';
import { ChatContextBadges } from './ChatContextBadges.tsx';
import { conversationWindow } from './conversation-window.ts';
import { formatTime, MessageBubble } from './MessageBubble.tsx';
import { NotesTab } from './NotesTab.tsx';
import { pendingMessage } from './pending-message.ts';
import { ScheduleDialog } from './ScheduleDialog.tsx';
import { TemplateSendDialog } from './TemplateSendDialog.tsx';
import { applyStatus, removeItem, replaceMessage, upsertItem } from './timeline-cache.ts';
import { useTimeline, useTimelineUpdater } from './use-timeline.ts';
import { useNow, WindowIndicator } from './WindowIndicator.tsx';

/** What the chat needs of a board card (spec 01 §3 Card). */
export type ChatCard = Pick<
  CardSummary,
  'id' | 'columnId' | 'title' | 'phone' | 'isGroup' | 'unreadCount' | 'contactLastMessageAt' | 'aiEnabled' | 'aiOffReason'
>;

interface ChatPanelProps {
  card: ChatCard;
  onClose: () => void;
  /** Applies a local change to the card on the board, before the server's card_updated confirms it. */
  onCardPatched: (patch: Partial<ChatCard>) => void;
  /** Viewers read the chat and change nothing (not even its read state). */
  readOnly?: boolean;
  /** Why the AI cannot be switched on under this plan; null when it can. */
  aiUnavailableReason?: string | null;
  /** The chat's column as the board has it (its assistant, its flow bot), when it is on screen. */
  column?: Pick<Column, 'gemini_config' | 'assistant_bot_id'>;
}

type Tab = 'messages' | 'notes';

function mediaTypeOf(mime: string) {
  if (mime.startsWith('image/')) return 'image';
  if (mime.startsWith('video/')) return 'video';
  if (mime.startsWith('audio/')) return 'audio';
  return 'document';
}

function ScheduledBubble({ item }: { item: Extract<TimelineItem, { kind: 'scheduled' }> }) {
  return (
    <div data-testid="chat-scheduled" className="flex justify-end">
      <div className="max-w-[80%] rounded-2xl border border-dashed border-sky-300 bg-sky-50 px-3 py-2 text-sm text-slate-700">
        <p className="flex items-center gap-1 text-[11px] font-semibold text-sky-700">
          <LineIcon name="clock" />
          Programado para {new Date(item.scheduledFor).toLocaleString('es')}
          {item.author ? ` · ${item.author}` : ''}
        </p>
        <p className="whitespace-pre-wrap">{item.text || 'Plantilla'}</p>
      </div>
    </div>
  );
}

function NoteBubble({ item }: { item: Extract<TimelineItem, { kind: 'note' }> }) {
  return (
    <div data-testid="chat-note" className="flex justify-center">
      <div className="max-w-[85%] rounded-xl bg-amber-50 px-3 py-2 text-sm text-amber-900 ring-1 ring-amber-200">
        <p className="flex items-center gap-1 text-[11px] font-semibold">
          <LineIcon name="note" />
          Nota interna{item.author ? ` · ${item.author}` : ''} · {formatTime(item.raw_timestamp)}
        </p>
        <p className="whitespace-pre-wrap">{item.text}</p>
      </div>
    </div>
  );
}

/** The side panel of one chat (spec 01 §2 Chat view). */
export function ChatPanel({ card, onClose, onCardPatched, readOnly = false, aiUnavailableReason = null, column }: ChatPanelProps) {
  const toast = useToast();
  const modal = useModal();
  const now = useNow();
  const [tab, setTab] = useState<Tab>('messages');
  const [replyTo, setReplyTo] = useState<ChatMessage | null>(null);
  const [lightbox, setLightbox] = useState<string | null>(null);
  const timeline = useTimeline(card.id);
  const updateTimeline = useTimelineUpdater();
  const windowOpen = conversationWindow(card.contactLastMessageAt, now).state !== 'closed';
  const scroller = useRef<HTMLDivElement>(null);
  const stickToBottom = useRef(true);
  const previousHeight = useRef<number | null>(null);

  // Opening a chat with unread messages marks it read (spec 01 §4).
  const unread = card.unreadCount > 0;
  useEffect(() => {
    if (!unread || readOnly) return;
    onCardPatched({ unreadCount: 0 });
    chatApi.markRead(card.id).catch(() => undefined);
    // Only when the card or its unread state changes, not on every new onCardPatched.
  }, [card.id, unread, readOnly]);

  useEffect(() => {
    setReplyTo(null);
    setTab('messages');
    stickToBottom.current = true;
  }, [card.id]);

  useSocketEvent('message:new', ({ cardId, message }) => {
    if (cardId !== card.id) return;
    updateTimeline(cardId, (data) => upsertItem(data, { kind: 'message', ...message }));
    // The agent is looking at this chat: a customer's new message is read at once.
    if (!('updated' in message) && message.sender === 'contact') chatApi.markRead(card.id).catch(() => undefined);
  });
  // A reaction, an edit or a deletion: the message as it is now, in its place.
  useSocketEvent('message:updated', ({ cardId, message }) => {
    if (cardId === card.id) updateTimeline(cardId, (data) => replaceMessage(data, message));
  });
  useSocketEvent('note:new', ({ cardId, note }) => {
    if (cardId === card.id) updateTimeline(cardId, (data) => upsertItem(data, { kind: 'note', ...note }));
  });
  useSocketEvent('scheduled:updated', ({ cardId, scheduled }) => {
    if (cardId !== card.id) return;
    updateTimeline(cardId, (data) =>
      scheduled.status === 'scheduled' ? upsertItem(data, { kind: 'scheduled', ...scheduled }) : removeItem(data, 'scheduled', scheduled.id),
    );
  });
  useSocketEvent('message_status_updated', ({ cardId, messageId, tempId, ack, error, errorCode }) => {
    if (cardId !== card.id) return;
    updateTimeline(cardId, (data) => applyStatus(data, { messageId, tempId, ack, error, errorCode }));
  });
  // A message that arrived before a join (while the socket was joining or down) is not replayed: the timeline is read again.
  useOnJoin(() => void timeline.refetch());

  // The lightbox closes on Escape like any dialog.
  useEffect(() => {
    if (!lightbox) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setLightbox(null);
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [lightbox]);

  // Keep the view at the newest message, and in place when an older page is prepended.
  const itemCount = timeline.items.length;
  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element) return;
    if (previousHeight.current !== null) {
      element.scrollTop += element.scrollHeight - previousHeight.current;
      previousHeight.current = null;
    } else if (stickToBottom.current) {
      element.scrollTop = element.scrollHeight;
    }
  }, [itemCount, tab]);

  // An image or video that finishes loading after the view was pinned pushes the newest message
  // down: pin again then, unless the person scrolled up. Load events do not bubble, so listen in capture.
  useEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const repin = () => {
      if (stickToBottom.current) element.scrollTop = element.scrollHeight;
    };
    const mediaLoaded = ['load', 'loadedmetadata'] as const;
    for (const type of mediaLoaded) element.addEventListener(type, repin, true);
    return () => {
      for (const type of mediaLoaded) element.removeEventListener(type, repin, true);
    };
  }, [tab]);

  const onScroll = () => {
    const element = scroller.current;
    if (!element) return;
    stickToBottom.current = element.scrollHeight - element.scrollTop - element.clientHeight < 80;
    if (element.scrollTop < 60 && timeline.hasNextPage && !timeline.isFetchingNextPage) {
      previousHeight.current = element.scrollHeight;
      void timeline.fetchNextPage();
    }
  };

  const insertOptimistic = (message: ChatMessage) => {
    stickToBottom.current = true;
    updateTimeline(card.id, (data) => upsertItem(data, { kind: 'message', ...message }));
  };
  const settle = (tempId: string) => ({
    ok: (message: ChatMessage | undefined) => {
      if (message?.id) updateTimeline(card.id, (data) => upsertItem(data, { kind: 'message', ...message, tempId }));
    },
    failed: (error: unknown) => {
      const reason = errorMessageOr(error, 'No se pudo enviar el mensaje.');
      updateTimeline(card.id, (data) => upsertItem(data, { kind: 'message', tempId, ack: -1 as MessageAck, error: reason }));
      toast.error(reason);
    },
  });

  const base = (tempId: string): ChatMessage =>
    pendingMessage({
      cardId: card.id,
      type: 'text',
      text: '',
      tempId,
      quotedMessageId: replyTo?.id ?? null,
      quotedMessageText: replyTo ? replyTo.text || replyTo.type : null,
      quotedMessageSender: replyTo?.sender ?? null,
    });

  const sendText = (text: string) => {
    const tempId = crypto.randomUUID();
    const quotedMessageId = replyTo?.id ?? null;
    insertOptimistic({ ...base(tempId), text });
    setReplyTo(null);
    const outcome = settle(tempId);
    chatApi.sendText({ cardId: card.id, text, tempId, quotedMessageId }).then(outcome.ok, outcome.failed);
  };

  const sendFile = (file: Blob, fileName: string, caption: string) => {
    const tempId = crypto.randomUUID();
    const quotedMessageId = replyTo?.id ?? null;
    insertOptimistic({ ...base(tempId), type: mediaTypeOf(file.type), text: caption, fileName, mediaMime: file.type, mediaUrl: URL.createObjectURL(file) });
    setReplyTo(null);
    const outcome = settle(tempId);
    chatApi.sendMedia({ cardId: card.id, file, fileName, caption, tempId, quotedMessageId }).then(outcome.ok, outcome.failed);
  };

  const toggleAi = useMutation({
    mutationFn: (enabled: boolean) => chatApi.toggleAi(card.id, enabled),
    // The server's answer (card_updated) confirms; meanwhile the switch says what a switch by hand means.
    onMutate: (enabled) => {
      const previous = card.aiOffReason ?? null;
      onCardPatched({ aiEnabled: enabled, aiOffReason: enabled ? null : 'by_hand' });
      return { previous };
    },
    onError: (error, enabled, context) => {
      onCardPatched({ aiEnabled: !enabled, aiOffReason: context?.previous ?? null });
      toast.error(errorMessageOr(error, 'Error al actualizar.'));
    },
  });

  // The member's reaction shows as the server answers it; the socket tells the other members.
  const react = (message: ChatMessage, emoji: string | null) =>
    void chatApi.react(message.id, emoji).then(
      (updated) => updateTimeline(card.id, (data) => replaceMessage(data, updated)),
      (error: unknown) => toast.error(errorMessageOr(error, 'No se pudo enviar la reacción.')),
    );

  const archive = useMutation({
    mutationFn: () => chatApi.archive(card.id),
    onSuccess: () => {
      toast.success('Chat archivado y movido a la columna del bot.');
      onClose();
    },
    onError: (error) => toast.error(errorMessageOr(error, 'Error al archivar el chat.')),
  });

  // Switching the assistant off is always allowed; on needs a plan that includes it.
  const aiLocked = aiUnavailableReason !== null && !card.aiEnabled;
  const aiNote = aiLocked ? null : aiSwitchNote(card, column, aiUnavailableReason);
  const aiNoteId = useId();

  const openTemplate = () => modal.open((close) => <TemplateSendDialog cardId={card.id} columnId={card.columnId} onClose={close} />);
  const openSchedule = () =>
    modal.open((close) => <ScheduleDialog cardId={card.id} columnId={card.columnId} contactLastMessageAt={card.contactLastMessageAt} onClose={close} />);

  return (
    <aside
      data-testid="chat-panel"
      data-card-id={card.id}
      aria-label={`Chat con ${card.title}`}
      className="flex h-full w-full flex-col border-l border-slate-200 bg-slate-50 shadow-xl max-sm:fixed max-sm:inset-0 max-sm:z-40 sm:w-[420px] lg:w-[480px]"
    >
      <header className="flex items-start gap-3 border-b border-slate-200 bg-white px-4 py-3">
        <div className="min-w-0 flex-1">
          <h2 className="truncate text-base font-semibold text-slate-900" data-testid="chat-title">
            {card.title}
          </h2>
          {card.phone && <CardContactLine phone={card.phone} isGroup={card.isGroup} />}
          <div className="mt-1.5">
            <WindowIndicator contactLastMessageAt={card.contactLastMessageAt} now={now} />
          </div>
          <ChatContextBadges context={timeline.context} />
        </div>
        <div className="flex shrink-0 flex-col items-end gap-1.5">
          <div className="flex items-center gap-1">
            {!readOnly && (
              <button
                type="button"
                onClick={() => archive.mutate()}
                disabled={archive.isPending}
                className="rounded-lg px-2 py-1 text-xs font-medium text-slate-600 ring-1 ring-slate-300 hover:bg-slate-100"
                title="Resolver y archivar"
              >
                Archivar
              </button>
            )}
            <button
              type="button"
              onClick={onClose}
              aria-label="Cerrar chat"
              className="rounded-lg p-1.5 text-slate-400 hover:bg-slate-100 hover:text-slate-700"
            >
              ✕
            </button>
          </div>
          <button
            type="button"
            role="switch"
            aria-checked={card.aiEnabled}
            disabled={readOnly}
            aria-disabled={aiLocked || undefined}
            aria-describedby={aiNote ? aiNoteId : undefined}
            title={aiLocked ? (aiUnavailableReason ?? undefined) : (aiNote ?? undefined)}
            onClick={() => (aiLocked ? toast.info(aiUnavailableReason ?? '') : toggleAi.mutate(!card.aiEnabled))}
            className={`rounded-full px-2.5 py-1 text-xs font-semibold ring-1 ring-inset disabled:cursor-default ${aiLocked ? 'cursor-not-allowed opacity-60' : ''} ${card.aiEnabled ? 'bg-violet-100 text-violet-800 ring-violet-300' : 'bg-slate-100 text-slate-600 ring-slate-300'}`}
          >
            {card.aiEnabled ? 'AI Activa' : 'AI Inactiva'}
          </button>
          {aiLocked && !readOnly && (
            <p data-testid="ai-plan-note" className="max-w-48 text-right text-[11px] leading-snug text-amber-700">
              {aiUnavailableReason}
            </p>
          )}
          {aiNote && (
            <p id={aiNoteId} data-testid="ai-switch-note" className="max-w-48 text-right text-[11px] leading-snug text-slate-500">
              {aiNote}
            </p>
          )}
        </div>
      </header>

      <div role="tablist" className="flex border-b border-slate-200 bg-white text-sm">
        {(
          [
            ['messages', 'Mensajes'],
            ['notes', 'Notas Internas'],
          ] as const
        ).map(([id, label]) => (
          <button
            key={id}
            type="button"
            role="tab"
            aria-selected={tab === id}
            onClick={() => setTab(id)}
            className={`flex-1 px-3 py-2 font-medium ${tab === id ? 'border-b-2 border-emerald-600 text-emerald-700' : 'text-slate-500 hover:text-slate-800'}`}
          >
            {label}
          </button>
        ))}
      </div>

      {tab === 'messages' ? (
        <>
          <div ref={scroller} onScroll={onScroll} data-testid="chat-timeline" className="min-h-0 flex-1 space-y-2 overflow-y-auto px-3 py-3 pl-10">
            {timeline.isFetchingNextPage && (
              <div className="flex justify-center py-1 text-slate-400">
                <Spinner className="size-4" />
              </div>
            )}
            {timeline.isLoading && (
              <div className="flex justify-center py-8 text-slate-400">
                <Spinner />
              </div>
            )}
            {timeline.isError && <p className="py-8 text-center text-sm text-rose-600">{errorMessageOr(timeline.error, 'Error al cargar los mensajes.')}</p>}
            {timeline.items.map((item) =>
              item.kind === 'message' ? (
                <MessageBubble
                  key={item.tempId ?? item.id}
                  message={item}
                  isGroup={card.isGroup}
                  onReply={setReplyTo}
                  onReact={readOnly ? undefined : react}
                  onOpenImage={setLightbox}
                />
              ) : item.kind === 'note' ? (
                <NoteBubble key={`note-${item.id}`} item={item} />
              ) : (
                <ScheduledBubble key={`scheduled-${item.id}`} item={item} />
              ),
            )}
            {!timeline.isLoading && !timeline.isError && itemCount === 0 && <p className="py-8 text-center text-sm text-slate-400">Aún no hay mensajes.</p>}
          </div>
          {readOnly ? (
            <p data-testid="read-only-note" className="border-t border-slate-200 bg-white px-4 py-3 text-center text-xs text-slate-500">
              Tu rol de Visualizador solo permite consultar este chat.
            </p>
          ) : (
            <ChatComposer
              cardId={card.id}
              columnId={card.columnId}
              windowOpen={windowOpen}
              replyTo={replyTo}
              onCancelReply={() => setReplyTo(null)}
              onSendText={sendText}
              onSendFile={sendFile}
              onOpenTemplate={openTemplate}
              onOpenSchedule={openSchedule}
            />
          )}
        </>
      ) : (
        <NotesTab
          cardId={card.id}
          readOnly={readOnly}
          notes={timeline.items.filter((item): item is Extract<TimelineItem, { kind: 'note' }> => item.kind === 'note')}
        />
      )}

      {lightbox && (
        <div role="dialog" aria-label="Imagen" className="fixed inset-0 z-50 grid place-items-center bg-black/80 p-6" onClick={() => setLightbox(null)}>
          <img src={lightbox} alt="Imagen ampliada" className="max-h-full max-w-full rounded-lg object-contain" />
          <button type="button" aria-label="Cerrar imagen" className="absolute top-4 right-4 text-2xl text-white" onClick={() => setLightbox(null)}>
            ✕
          </button>
        </div>
      )}
    </aside>
  );
}
