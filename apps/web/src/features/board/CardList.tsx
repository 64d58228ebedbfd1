import { useVirtualizer } from '@tanstack/react-virtual';
import { startTransition, useEffect, useRef, useState, type RefObject } from 'react';
import type { BoardCard } from './board.api.ts';
import { BoardCardItem } from './BoardCardItem.tsx';

/** Above this many cards a column renders only what is on screen. */
export const VIRTUALISE_ABOVE = 100;

/**
 * What stands above a column's first card (the app's header, the funnel's bar, the column's head, its search and start
 * button) and a card with the gap below it. Both a little under what they measure on a laptop (270 and 129 px), so the
 * estimate errs by a card too many, never too few.
 */
const ABOVE_FIRST_CARD_PX = 260;
const CARD_WITH_GAP_PX = 110;

/**
 * A plain list's cards rendered on its first pass: those a window this tall shows. The others follow in the next
 * render, after the board's first frame. That frame's style, layout and paint took about 1 ms of the page's thread a
 * card (traced: 71 ms with twelve cards a column, 50 with six), and at 900 px five of the twelve were on screen.
 */
export function firstPassCards(windowHeight: number) {
  return Math.min(12, Math.max(1, Math.ceil((windowHeight - ABOVE_FIRST_CARD_PX) / CARD_WITH_GAP_PX)));
}

/** More of the column's chats, read when the end of the list comes into view (or on click). */
export interface MoreCards {
  load: () => void;
  loading: boolean;
}

interface CardListProps {
  cards: BoardCard[];
  openCardId: string | null;
  onOpen: (card: BoardCard) => void;
  onRename: (card: BoardCard) => void;
  onMoveToFunnel: (card: BoardCard) => void;
  readOnly?: boolean;
  /** Said in place of the cards when there are none to show. */
  emptyText?: string;
  /** Set while the column holds more chats than the list shows. */
  more?: MoreCards;
}

/** The end of the list: asks for the next page once it scrolls into view; a button for whoever prefers to click. */
function LoadMore({ more, root }: { more: MoreCards; root: RefObject<HTMLDivElement | null> }) {
  const sentinel = useRef<HTMLButtonElement>(null);
  const { load, loading } = more;
  useEffect(() => {
    const target = sentinel.current;
    if (!target || loading || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => entries.some((entry) => entry.isIntersecting) && load(), {
      root: root.current,
      rootMargin: '200px',
    });
    observer.observe(target);
    return () => observer.disconnect();
  }, [load, loading, root]);
  return (
    <button
      ref={sentinel}
      type="button"
      onClick={load}
      disabled={loading}
      className="w-full rounded-lg py-2 text-xs font-medium text-slate-500 hover:bg-white hover:text-emerald-700 disabled:cursor-wait"
    >
      {loading ? 'Cargando chats…' : 'Cargar más chats'}
    </button>
  );
}

function VirtualCardList({ cards, openCardId, more, ...actions }: Omit<CardListProps, 'emptyText'>) {
  const parent = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: cards.length,
    getScrollElement: () => parent.current,
    estimateSize: () => 112,
    overscan: 8,
    getItemKey: (index) => cards[index]!.id,
  });
  return (
    <div ref={parent} className="min-h-0 flex-1 overflow-y-auto px-2 pb-2" data-testid="card-list" data-virtual="true">
      <div className="relative w-full" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((row) => {
          const card = cards[row.index]!;
          return (
            <div
              key={row.key}
              data-index={row.index}
              ref={virtualizer.measureElement}
              className="absolute left-0 w-full pb-2"
              style={{ transform: `translateY(${row.start}px)` }}
            >
              <BoardCardItem card={card} active={card.id === openCardId} {...actions} />
            </div>
          );
        })}
      </div>
      {more && <LoadMore more={more} root={parent} />}
    </div>
  );
}

/** A column's cards; virtualised when the column is long so thousands of chats scroll smoothly. */
export function CardList({ emptyText, ...list }: CardListProps) {
  const parent = useRef<HTMLDivElement>(null);
  const [firstPass, setFirstPass] = useState(true);
  useEffect(() => startTransition(() => setFirstPass(false)), []);
  if (list.cards.length > VIRTUALISE_ABOVE) return <VirtualCardList {...list} />;
  const { openCardId, more, ...actions } = list;
  const onScreen = firstPassCards(window.innerHeight);
  const cards = firstPass ? list.cards.slice(0, onScreen) : list.cards;
  return (
    <div ref={parent} className="min-h-0 flex-1 space-y-2 overflow-y-auto px-2 pb-2" data-testid="card-list">
      {cards.length === 0 && emptyText && !more && (
        <p data-testid="card-list-empty" className="py-6 text-center text-xs text-slate-400">
          {emptyText}
        </p>
      )}
      {cards.map((card, index) => (
        <BoardCardItem key={card.id} card={card} active={card.id === openCardId} skipOffscreen={index >= onScreen} {...actions} />
      ))}
      {/* Not yet: right below the first pass's cards it would be in view and ask for the next page. */}
      {more && !firstPass && <LoadMore more={more} root={parent} />}
    </div>
  );
}
