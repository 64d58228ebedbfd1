import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef } from 'react';
import type { BoardCard } from './board.api.ts';
import { BoardCardItem } from './BoardCardItem.tsx';

/** Above this many cards a column renders only what is on screen. */
export const VIRTUALISE_ABOVE = 100;

interface CardListProps {
  cards: BoardCard[];
  openCardId: string | null;
  onOpen: (cardId: string) => void;
  onRename: (card: BoardCard) => void;
  onMoveToFunnel: (card: BoardCard) => void;
  readOnly?: boolean;
  /** Said in place of the cards when there are none to show. */
  emptyText?: string;
}

function VirtualCardList({ cards, openCardId, ...actions }: Omit<CardListProps, 'emptyText'>) {
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
    </div>
  );
}

/** A column's cards; virtualised when the column is long so thousands of chats scroll smoothly. */
export function CardList({ emptyText, ...list }: CardListProps) {
  if (list.cards.length > VIRTUALISE_ABOVE) return <VirtualCardList {...list} />;
  const { cards, openCardId, ...actions } = list;
  return (
    <div className="min-h-0 flex-1 space-y-2 overflow-y-auto px-2 pb-2" data-testid="card-list">
      {cards.length === 0 && emptyText && (
        <p data-testid="card-list-empty" className="py-6 text-center text-xs text-slate-400">
          {emptyText}
        </p>
      )}
      {cards.map((card) => (
        <BoardCardItem key={card.id} card={card} active={card.id === openCardId} {...actions} />
      ))}
    </div>
  );
}
