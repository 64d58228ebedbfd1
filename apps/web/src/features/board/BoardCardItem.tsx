import { memo, useCallback, useRef, useState } from 'react';
import { useDismiss } from '../../shared/hooks/use-dismiss.ts';
import { shortDateTime } from '../../shared/format/short-date-time.ts';
import { LineIcon, type IconName } from '../../shared/ui/LineIcon.tsx';
import type { BoardCard } from './board.api.ts';
import { CardContactLine } from './CardContactLine.tsx';

export const CARD_DRAG_TYPE = 'application/x-embudo-card';

const previews: Record<string, string> = {
  image: 'Imagen',
  video: 'Video',
  audio: 'Audio',
  sticker: 'Sticker',
  location: 'Ubicación',
  document: 'Documento',
  template: 'Plantilla',
};
const previewIcons: Record<string, IconName> = {
  image: 'image',
  sticker: 'image',
  video: 'video',
  audio: 'microphone',
  location: 'pin',
  document: 'file',
  template: 'template',
};

// A column holds up to 50 cards and shows a handful: the browser lays out and paints the others only once they
// scroll into view (the board's first frame spent ~150 ms on them). It also clips what overflows the card, so the
// open menu, which hangs below it, turns it off. Not for the cards the window shows at first: the browser would lay
// the frame out twice, once to find them on screen and again with their content.
const OFFSCREEN_SKIPPED = '[content-visibility:auto] [contain-intrinsic-size:auto_100px]';

export function lastMessagePreview(card: Pick<BoardCard, 'lastMessageType' | 'lastMessageText'>) {
  if (card.lastMessageText) return card.lastMessageText;
  return card.lastMessageType ? (previews[card.lastMessageType] ?? 'Mensaje') : 'Sin mensajes';
}

interface BoardCardItemProps {
  card: BoardCard;
  active: boolean;
  onOpen: (card: BoardCard) => void;
  onRename: (card: BoardCard) => void;
  onMoveToFunnel: (card: BoardCard) => void;
  /** Viewers read chats only: no drag, no card menu. */
  readOnly?: boolean;
  /** Laid out and painted only while on screen; off for the cards a plain list shows in the window at first. */
  skipOffscreen?: boolean;
}

/** One chat on the board: draggable between columns, opens the chat on click. */
export const BoardCardItem = memo(function BoardCardItem({
  card,
  active,
  onOpen,
  onRename,
  onMoveToFunnel,
  readOnly = false,
  skipOffscreen = true,
}: BoardCardItemProps) {
  const [menuOpen, setMenuOpen] = useState(false);
  const menuRef = useRef<HTMLDivElement>(null);

  const closeMenu = useCallback(() => setMenuOpen(false), []);
  useDismiss(menuRef, menuOpen, closeMenu);

  return (
    <div
      data-testid="board-card"
      data-card-id={card.id}
      draggable={!readOnly}
      onDragStart={(event) => {
        if (readOnly) return;
        event.dataTransfer.setData(CARD_DRAG_TYPE, card.id);
        event.dataTransfer.setData('text/plain', card.id);
        event.dataTransfer.effectAllowed = 'move';
      }}
      onClick={() => onOpen(card)}
      onKeyDown={(event) => {
        if (event.key === 'Enter' && event.target === event.currentTarget) onOpen(card);
      }}
      role="button"
      tabIndex={0}
      aria-label={`Abrir chat ${card.title}`}
      className={`group relative cursor-pointer rounded-xl bg-white p-3 text-left shadow-sm ring-1 transition hover:shadow-md ${active ? 'ring-2 ring-emerald-500' : 'ring-slate-200'} ${menuOpen || !skipOffscreen ? '' : OFFSCREEN_SKIPPED}`}
    >
      <div className="flex items-start gap-2">
        <div className="min-w-0 flex-1">
          <p className="truncate text-sm font-semibold text-slate-900" data-testid="card-title">
            {card.title}
          </p>
          {card.phone && <CardContactLine phone={card.phone} isGroup={card.isGroup} />}
        </div>
        {card.unreadCount > 0 && (
          <span
            data-testid="unread-badge"
            aria-label={`${card.unreadCount} sin leer`}
            className="grid h-5 min-w-5 place-items-center rounded-full bg-emerald-600 px-1.5 text-[11px] font-bold text-white"
          >
            {card.unreadCount}
          </span>
        )}
        {!readOnly && (
          <div ref={menuRef} className="relative" onClick={(event) => event.stopPropagation()}>
            <button
              type="button"
              aria-label="Opciones del chat"
              aria-haspopup="menu"
              aria-expanded={menuOpen}
              onClick={() => setMenuOpen((open) => !open)}
              className="rounded p-0.5 text-slate-400 hover:bg-slate-100 hover:text-slate-700"
            >
              ⋮
            </button>
            {menuOpen && (
              <div role="menu" className="absolute right-0 z-20 mt-1 w-40 rounded-lg bg-white py-1 text-sm shadow-lg ring-1 ring-slate-200">
                <button
                  type="button"
                  role="menuitem"
                  className="block w-full px-3 py-1.5 text-left hover:bg-slate-50"
                  onClick={() => {
                    setMenuOpen(false);
                    onRename(card);
                  }}
                >
                  Renombrar
                </button>
                <button
                  type="button"
                  role="menuitem"
                  className="block w-full px-3 py-1.5 text-left hover:bg-slate-50"
                  onClick={() => {
                    setMenuOpen(false);
                    onMoveToFunnel(card);
                  }}
                >
                  Mover a funnel
                </button>
              </div>
            )}
          </div>
        )}
      </div>
      <p className="mt-1.5 line-clamp-2 text-xs text-slate-600" data-testid="card-preview">
        {!card.lastMessageText && card.lastMessageType && previewIcons[card.lastMessageType] && (
          <LineIcon name={previewIcons[card.lastMessageType]!} className="mr-1 size-3.5 align-[-2px] text-slate-400" />
        )}
        {lastMessagePreview(card)}
      </p>
      <div className="mt-1.5 flex items-center justify-between text-[11px] text-slate-400">
        <span>{card.lastActivityAt ? shortDateTime(new Date(card.lastActivityAt)) : ''}</span>
        {card.aiEnabled && <span className="rounded bg-violet-100 px-1 font-semibold text-violet-700">AI</span>}
      </div>
    </div>
  );
});
