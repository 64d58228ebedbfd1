import { useCallback, useDeferredValue, useMemo, useRef, useState } from 'react';
import { columnColors } from '@embudo/contracts/http/column-colors';
import { useDismiss } from '../../shared/hooks/use-dismiss.ts';
import type { BoardCard, BoardColumn, ColumnColor } from './board.api.ts';
import { CARD_DRAG_TYPE } from './BoardCardItem.tsx';
import { CardList, type MoreCards } from './CardList.tsx';
import { useServerColumnView } from './use-column-search.ts';

const colorStyles: Record<ColumnColor, { bar: string; dot: string; label: string }> = {
  blue: { bar: 'border-t-sky-500', dot: 'bg-sky-500', label: 'Azul' },
  orange: { bar: 'border-t-orange-500', dot: 'bg-orange-500', label: 'Naranja' },
  purple: { bar: 'border-t-violet-500', dot: 'bg-violet-500', label: 'Morado' },
  green: { bar: 'border-t-emerald-500', dot: 'bg-emerald-500', label: 'Verde' },
};

export interface ColumnActions {
  // The board's handlers save and report errors themselves: the column view only starts them.
  onRename: (column: BoardColumn, title: string) => void | Promise<void>;
  onColor: (column: BoardColumn, color: ColumnColor) => void | Promise<void>;
  onToggleAi: (column: BoardColumn, enabled: boolean) => void | Promise<void>;
  onDelete: (column: BoardColumn) => void | Promise<void>;
  onStartConversation: (column: BoardColumn) => void;
  onOpenSettings: (column: BoardColumn) => void;
  onOpenBot: (column: BoardColumn) => void;
  onDropCard: (cardId: string, columnId: string) => void;
  onOpenCard: (card: BoardCard) => void;
  /** Reads the column's next page into the board. */
  onLoadMore: (column: BoardColumn) => Promise<void>;
  onRenameCard: (card: BoardCard) => void;
  onMoveCardToFunnel: (card: BoardCard) => void;
}

function matches(card: BoardCard, search: string) {
  const needle = search.trim().toLowerCase();
  if (!needle) return true;
  return [card.title, card.phone, card.lastMessageText].some((field) => field?.toLowerCase().includes(needle));
}

interface BoardColumnViewProps {
  column: BoardColumn;
  openCardId: string | null;
  actions: ColumnActions;
  /** Viewers: no editing, no column tools, no drag and drop, no new conversations. */
  readOnly?: boolean;
  /** Why the AI cannot be switched on under this plan; null when it can. */
  aiUnavailableReason?: string | null;
}

/** One column of the funnel: header tools, search, unread-first sort and its cards. */
export function BoardColumnView({ column, openCardId, actions, readOnly = false, aiUnavailableReason = null }: BoardColumnViewProps) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(column.title);
  const [menuOpen, setMenuOpen] = useState(false);
  const menuHolder = useRef<HTMLDivElement>(null);
  const closeMenu = useCallback(() => setMenuOpen(false), []);
  useDismiss(menuHolder, menuOpen, closeMenu);
  const [search, setSearch] = useState('');
  const [unreadFirst, setUnreadFirst] = useState(false);
  const [dragOver, setDragOver] = useState(false);
  const style = colorStyles[column.color as ColumnColor] ?? colorStyles.blue;

  const localCards = useMemo(() => {
    const found = column.cards.filter((card) => matches(card, search));
    return unreadFirst ? [...found].sort((a, b) => Number(b.unreadCount > 0) - Number(a.unreadCount > 0)) : found;
  }, [column.cards, search, unreadFirst]);
  // While the board holds only the first pages of a long column, a search or the unread-first order is answered by
  // the server over the whole column; the chats already here are filtered at once in the meantime.
  const [loadingMore, setLoadingMore] = useState(false);
  const loadMore = useCallback(() => {
    if (loadingMore) return;
    setLoadingMore(true);
    void actions.onLoadMore(column).finally(() => setLoadingMore(false));
  }, [actions, column, loadingMore]);
  const query = useDeferredValue(search.trim());
  const wholeColumn = useServerColumnView(column, query, unreadFirst);
  const cards = wholeColumn?.cards ?? localCards;
  const more: MoreCards | undefined = wholeColumn
    ? wholeColumn.more
    : column.nextCursor !== null && !search.trim() && !unreadFirst
      ? { load: loadMore, loading: loadingMore }
      : undefined;

  // Enter then the input's removal may both end the edit; only the first one counts.
  const ended = useRef(false);
  const finishEdit = (save: boolean) => {
    if (ended.current) return;
    ended.current = true;
    setEditing(false);
    if (save) void actions.onRename(column, draft);
  };

  return (
    <section
      data-testid="board-column"
      data-column-id={column.id}
      aria-label={column.title}
      onDragOver={(event) => {
        if (readOnly) return;
        if (!event.dataTransfer.types.includes(CARD_DRAG_TYPE) && !event.dataTransfer.types.includes('text/plain')) return;
        event.preventDefault();
        event.dataTransfer.dropEffect = 'move';
        setDragOver(true);
      }}
      onDragLeave={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragOver(false);
      }}
      onDrop={(event) => {
        event.preventDefault();
        if (readOnly) return;
        setDragOver(false);
        const cardId = event.dataTransfer.getData(CARD_DRAG_TYPE) || event.dataTransfer.getData('text/plain');
        if (cardId) actions.onDropCard(cardId, column.id);
      }}
      className={`flex h-full w-72 shrink-0 flex-col rounded-2xl border-t-4 bg-slate-100/80 ring-1 ring-slate-200 ${style.bar} ${dragOver ? 'bg-emerald-50 ring-2 ring-emerald-400' : ''}`}
    >
      <div className="space-y-2 px-3 pt-3 pb-2">
        <div className="flex items-center gap-2">
          {editing ? (
            <input
              autoFocus
              aria-label="Título de la columna"
              value={draft}
              onChange={(event) => setDraft(event.target.value)}
              onBlur={() => finishEdit(true)}
              onKeyDown={(event) => {
                if (event.key === 'Enter') finishEdit(true);
                if (event.key === 'Escape') finishEdit(false);
              }}
              className="min-w-0 flex-1 rounded-md border border-emerald-400 px-2 py-1 text-sm font-semibold outline-none"
            />
          ) : (
            <h2
              className={`min-w-0 flex-1 truncate text-sm font-semibold text-slate-800 ${readOnly ? '' : 'cursor-text'}`}
              title={readOnly ? undefined : 'Haz clic para editar el título'}
              onClick={() => {
                if (readOnly) return;
                setDraft(column.title);
                ended.current = false;
                setEditing(true);
              }}
            >
              {column.title}
            </h2>
          )}
          <span className="rounded-full bg-white px-2 text-xs font-medium text-slate-500 ring-1 ring-slate-200" aria-label={`${column.cardCount} chats`}>
            {column.cardCount}
          </span>
          {!readOnly && (
            <div ref={menuHolder} className="relative">
              <button
                type="button"
                aria-label="Opciones de la columna"
                aria-haspopup="menu"
                aria-expanded={menuOpen}
                onClick={() => setMenuOpen((open) => !open)}
                className="rounded p-1 text-slate-500 hover:bg-white"
              >
                ⋯
              </button>
              {menuOpen && (
                <div role="menu" className="absolute right-0 z-30 mt-1 w-56 rounded-lg bg-white py-1 text-sm shadow-lg ring-1 ring-slate-200">
                  <div className="flex items-center gap-2 px-3 py-2" aria-label="Color de la columna" role="group">
                    {columnColors.map((color) => (
                      <button
                        key={color}
                        type="button"
                        aria-label={`Color ${colorStyles[color].label}`}
                        aria-pressed={column.color === color}
                        title={colorStyles[color].label}
                        onClick={() => {
                          setMenuOpen(false);
                          void actions.onColor(column, color);
                        }}
                        className={`size-5 rounded-full ${colorStyles[color].dot} ${column.color === color ? 'ring-2 ring-slate-800 ring-offset-1' : ''}`}
                      />
                    ))}
                  </div>
                  {(
                    [
                      ['Configuración de columna', () => actions.onOpenSettings(column)],
                      ['Configurar Bot Gemini', () => actions.onOpenBot(column)],
                    ] as const
                  ).map(([label, run]) => (
                    <button
                      key={label}
                      type="button"
                      role="menuitem"
                      className="block w-full px-3 py-1.5 text-left hover:bg-slate-50"
                      onClick={() => {
                        setMenuOpen(false);
                        run();
                      }}
                    >
                      {label}
                    </button>
                  ))}
                  <button
                    type="button"
                    role="menuitem"
                    disabled={aiUnavailableReason !== null}
                    title={aiUnavailableReason ?? undefined}
                    className="block w-full px-3 py-1.5 text-left hover:bg-slate-50 disabled:cursor-not-allowed disabled:text-slate-300 disabled:hover:bg-transparent"
                    onClick={() => {
                      setMenuOpen(false);
                      void actions.onToggleAi(column, true);
                    }}
                  >
                    Activar AI en todos
                    {aiUnavailableReason && <span className="mt-0.5 block text-[11px] leading-snug text-amber-700">{aiUnavailableReason}</span>}
                  </button>
                  <button
                    type="button"
                    role="menuitem"
                    className="block w-full px-3 py-1.5 text-left hover:bg-slate-50"
                    onClick={() => {
                      setMenuOpen(false);
                      void actions.onToggleAi(column, false);
                    }}
                  >
                    Desactivar AI en todos
                  </button>
                  <button
                    type="button"
                    role="menuitem"
                    className="block w-full px-3 py-1.5 text-left text-rose-600 hover:bg-rose-50"
                    onClick={() => {
                      setMenuOpen(false);
                      void actions.onDelete(column);
                    }}
                  >
                    Borrar Columna
                  </button>
                </div>
              )}
            </div>
          )}
        </div>
        <div className="flex items-center gap-1.5">
          <input
            type="search"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            placeholder="Buscar chat…"
            aria-label={`Buscar chat en ${column.title}`}
            className="min-w-0 flex-1 rounded-lg border border-slate-200 bg-white px-2 py-1 text-xs outline-none focus:border-emerald-400"
          />
          <button
            type="button"
            aria-pressed={unreadFirst}
            onClick={() => setUnreadFirst((value) => !value)}
            title="No leídos primero"
            className={`rounded-lg px-2 py-1 text-xs font-medium ring-1 ${unreadFirst ? 'bg-emerald-600 text-white ring-emerald-600' : 'bg-white text-slate-600 ring-slate-200'}`}
          >
            No leídos primero
          </button>
        </div>
        {!readOnly && (
          <button
            type="button"
            onClick={() => actions.onStartConversation(column)}
            className="w-full rounded-lg border border-dashed border-slate-300 py-1 text-xs font-medium text-slate-600 hover:border-emerald-400 hover:text-emerald-700"
          >
            + Iniciar Conversación
          </button>
        )}
      </div>
      <CardList
        cards={cards}
        emptyText={column.cardCount === 0 ? 'Sin chats' : 'Sin resultados'}
        more={more}
        openCardId={openCardId}
        onOpen={actions.onOpenCard}
        onRename={actions.onRenameCard}
        onMoveToFunnel={actions.onMoveCardToFunnel}
        readOnly={readOnly}
      />
    </section>
  );
}
