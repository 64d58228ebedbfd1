import { shownFunnelId } from '@embudo/contracts/shown-funnel';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { errorMessageOr } from '../../shared/api-client/api-error.ts';
import { useSocketEvent } from '../../shared/realtime-client/use-socket-event.ts';
import { Button } from '../../shared/ui/Button.tsx';
import { lazyNamed } from '../../shared/ui/lazy-named.ts';
import { Spinner } from '../../shared/ui/Spinner.tsx';
import { useStableHandlers } from '../../shared/hooks/use-stable-handlers.ts';
import { useDialogs } from '../../shared/ui/use-dialogs.ts';
import { useModal } from '../../shared/ui/use-modal.ts';
import { useToast } from '../../shared/ui/use-toast.ts';
import { usePermissions } from '../auth/use-permissions.ts';
import type { ChatCard } from '../chat/ChatPanel.tsx';
import { boardApi, type Board, type BoardCard, type BoardColumn, type Column, type FunnelSummary } from './board.api.ts';
import { appendColumnPage, findCard, holdCard, moveCardLocally, patchCard, removeCard } from './board-cache.ts';
import { boardKey, boardQuery, funnelsKey, funnelsQuery } from './board-queries.ts';
import { BoardColumnView, type ColumnActions } from './BoardColumnView.tsx';
import { FunnelSelector } from './FunnelSelector.tsx';
import { playNotificationBeep, readSoundEnabled, storeSoundEnabled } from './notification-sound.ts';
import { renamedValue } from './rename-value.ts';
import { readSelectedFunnelId, SELECTED_FUNNEL_KEY } from './shown-funnel.ts';
import { useBoardLive } from './use-board-live.ts';

// Not needed to show the cards: their code loads when first opened, so the board's first paint waits for none of it.
const ChatPanel = lazyNamed(() => import('../chat/ChatPanel.tsx'), 'ChatPanel');
const BulkSendWizard = lazyNamed(() => import('../bulk-sends/BulkSendWizard.tsx'), 'BulkSendWizard');
const ColumnBotDialog = lazyNamed(() => import('./ColumnBotDialog.tsx'), 'ColumnBotDialog');
const ColumnSettingsDialog = lazyNamed(() => import('./ColumnSettingsDialog.tsx'), 'ColumnSettingsDialog');
const MoveCardDialog = lazyNamed(() => import('./MoveCardDialog.tsx'), 'MoveCardDialog');
const StartConversationDialog = lazyNamed(() => import('./StartConversationDialog.tsx'), 'StartConversationDialog');

function Counter({ label, value, testId }: { label: string; value: number; testId: string }) {
  return (
    <span className="inline-flex items-center gap-1.5 rounded-lg bg-white px-2.5 py-1 text-xs text-slate-600 ring-1 ring-slate-200">
      {label}
      <strong data-testid={testId} className="text-slate-900">
        {value}
      </strong>
    </span>
  );
}

/** The sales-funnel board (spec 01 §2 Board) with the chat panel beside it. */
export function BoardPage() {
  const toast = useToast();
  const dialogs = useDialogs();
  const modal = useModal();
  const queryClient = useQueryClient();
  const [selectedId, setSelectedId] = useState<string | null>(readSelectedFunnelId);
  const [openCardId, setOpenCardId] = useState<string | null>(null);
  const [soundOn, setSoundOn] = useState(readSoundEnabled);
  const { canWrite, canManage, aiUnavailableReason } = usePermissions();

  const funnels = useQuery(funnelsQuery());
  const funnelList = useMemo(() => funnels.data ?? [], [funnels.data]);
  const funnelId = shownFunnelId(funnelList, selectedId);

  const board = useQuery({ ...boardQuery(funnelId ?? ''), enabled: funnelId !== null });

  useEffect(() => {
    if (funnels.isError) toast.error(errorMessageOr(funnels.error, 'No se pudieron cargar los funnels.'));
  }, [funnels.isError, funnels.error, toast]);
  useEffect(() => {
    if (board.isError) toast.error(errorMessageOr(board.error, 'No se pudo cargar el tablero.'));
  }, [board.isError, board.error, toast]);

  const selectFunnel = (id: string) => {
    setSelectedId(id);
    setOpenCardId(null);
    localStorage.setItem(SELECTED_FUNNEL_KEY, id);
  };

  const setBoard = useCallback(
    (update: (current: Board) => Board) => {
      if (!funnelId) return;
      queryClient.setQueryData<Board>(boardKey(funnelId), (current) => (current ? update(current) : current));
    },
    [queryClient, funnelId],
  );
  const refetchBoard = useCallback(() => {
    if (funnelId) void queryClient.invalidateQueries({ queryKey: boardKey(funnelId) });
  }, [queryClient, funnelId]);
  const refetchFunnels = useCallback(() => void queryClient.invalidateQueries({ queryKey: funnelsKey }), [queryClient]);

  // Realtime (spec 02 §7): other agents' moves, renames and new chats appear without a reload.
  const live = useBoardLive({ funnelId, openCardId });
  useSocketEvent('message:new', ({ message }) => {
    // `updated` only fills in a downloaded media URL of a message already announced; card_updated brings the count.
    if ('updated' in message || message.sender !== 'contact') return;
    if (soundOn) playNotificationBeep();
  });

  const toggleSound = () => {
    setSoundOn((on) => {
      storeSoundEnabled(!on);
      return !on;
    });
  };

  const createFunnel = async () => {
    const name = renamedValue(await dialogs.prompt({ title: 'Nuevo Funnel', label: 'Nombre del funnel', confirmText: 'Crear' }), '');
    if (!name) return;
    try {
      const created = await boardApi.createFunnel(name);
      toast.success('Funnel creado exitosamente.');
      queryClient.setQueryData<FunnelSummary[]>(funnelsKey, (list) => [...(list ?? []), { ...created, unreadCount: created.unreadCount ?? 0 }]);
      selectFunnel(created.id);
      refetchFunnels();
    } catch (error) {
      toast.error(errorMessageOr(error, 'Error al crear el funnel.'));
    }
  };

  const renameFunnel = async (funnel: FunnelSummary, input: string) => {
    const name = renamedValue(input, funnel.name);
    if (!name) return;
    try {
      await boardApi.renameFunnel(funnel.id, name);
      queryClient.setQueryData<FunnelSummary[]>(funnelsKey, (list) => list?.map((item) => (item.id === funnel.id ? { ...item, name } : item)));
      toast.success('Funnel actualizado.');
      refetchFunnels();
    } catch (error) {
      toast.error(errorMessageOr(error, 'Error al actualizar.'));
    }
  };

  const createColumn = async () => {
    if (!funnelId) return;
    const title = renamedValue(await dialogs.prompt({ title: 'Nueva Columna', label: 'Título de la columna', confirmText: 'Crear' }), '');
    if (!title) return;
    try {
      await boardApi.createColumn(funnelId, title);
      toast.success('Columna creada.');
      refetchBoard();
    } catch (error) {
      toast.error(errorMessageOr(error, 'Error al crear la columna.'));
    }
  };

  const moveCard = useMutation({
    mutationFn: ({ cardId, targetColumnId }: { cardId: string; targetColumnId: string; previous: Board }) => boardApi.moveCard(cardId, targetColumnId),
    onError: (error, { previous }) => {
      // Undo the optimistic move (spec 01 §4).
      setBoard(() => previous);
      toast.error(errorMessageOr(error, 'Error al mover el chat.'));
    },
  });

  const renameCard = useCallback(
    async (card: BoardCard) => {
      const title = renamedValue(
        await dialogs.prompt({ title: 'Renombrar', label: 'Nombre del chat', defaultValue: card.title, confirmText: 'Guardar' }),
        card.title,
      );
      if (!title) return;
      try {
        await boardApi.renameCard(card.id, title);
        setBoard((current) => patchCard(current, card.id, { title }));
        toast.success('Nombre del chat actualizado.');
      } catch (error) {
        toast.error(errorMessageOr(error, 'Error al actualizar.'));
      }
    },
    [dialogs, setBoard, toast],
  );

  const patchColumn = useCallback(
    (saved: Column) =>
      setBoard((current) => ({
        ...current,
        columns: current.columns.map((item) =>
          item.id === saved.id ? { ...item, gemini_config: saved.gemini_config, assistant_bot_id: saved.assistant_bot_id } : item,
        ),
      })),
    [setBoard],
  );

  const latestActions: ColumnActions = {
    onRename: async (column, input) => {
      const title = renamedValue(input, column.title);
      if (!title) return;
      try {
        await boardApi.updateColumn(column.id, { title });
        setBoard((current) => ({ ...current, columns: current.columns.map((item) => (item.id === column.id ? { ...item, title } : item)) }));
        toast.success('Columna actualizada.');
      } catch (error) {
        toast.error(errorMessageOr(error, 'Error al actualizar.'));
      }
    },
    onColor: async (column, color) => {
      if (column.color === color) return;
      setBoard((current) => ({ ...current, columns: current.columns.map((item) => (item.id === column.id ? { ...item, color } : item)) }));
      try {
        await boardApi.updateColumn(column.id, { color });
        toast.success('Columna actualizada.');
      } catch (error) {
        setBoard((current) => ({ ...current, columns: current.columns.map((item) => (item.id === column.id ? { ...item, color: column.color } : item)) }));
        toast.error(errorMessageOr(error, 'Error al actualizar.'));
      }
    },
    onToggleAi: async (column, enabled) => {
      try {
        await boardApi.toggleColumnAi(column.id, enabled);
        setBoard((current) => ({
          ...current,
          columns: current.columns.map((item) =>
            item.id === column.id
              ? { ...item, cards: item.cards.map((card) => ({ ...card, aiEnabled: enabled, aiOffReason: enabled ? null : ('column_off' as const) })) }
              : item,
          ),
        }));
        toast.success(enabled ? 'AI activada en todos los chats de la columna.' : 'AI desactivada en todos los chats de la columna.');
      } catch (error) {
        toast.error(errorMessageOr(error, 'Error al actualizar.'));
      }
    },
    onDelete: async (column: BoardColumn) => {
      const yes = await dialogs.confirm({
        title: 'Borrar Columna',
        message: `¿Seguro que quieres borrar la columna "${column.title}"?`,
        confirmText: 'Borrar',
        destructive: true,
      });
      if (!yes) return;
      try {
        await boardApi.deleteColumn(column.id);
        setBoard((current) => ({ ...current, columns: current.columns.filter((item) => item.id !== column.id) }));
        toast.success('Columna eliminada.');
      } catch (error) {
        toast.error(errorMessageOr(error, 'Error al eliminar la columna.'));
      }
    },
    onOpenSettings: (column) => modal.open((close) => <ColumnSettingsDialog column={column} onSaved={patchColumn} onClose={close} />),
    onOpenBot: (column) => modal.open((close) => <ColumnBotDialog column={column} onSaved={patchColumn} onClose={close} />),
    onStartConversation: (column) => modal.open((close) => <StartConversationDialog columnId={column.id} onStarted={refetchBoard} onClose={close} />),
    onDropCard: (cardId, targetColumnId) => {
      const previous = funnelId ? queryClient.getQueryData<Board>(boardKey(funnelId)) : undefined;
      const card = findCard(previous, cardId);
      if (!previous || !card || card.columnId === targetColumnId) return;
      setBoard((current) => moveCardLocally(current, cardId, targetColumnId));
      moveCard.mutate({ cardId, targetColumnId, previous });
    },
    onOpenCard: (card) => {
      setBoard((current) => holdCard(current, card));
      setOpenCardId(card.id);
    },
    onLoadMore: async (column) => {
      if (!column.nextCursor) return;
      try {
        const page = await boardApi.columnCards(column.id, { cursor: column.nextCursor });
        setBoard((current) => appendColumnPage(current, column.id, page));
      } catch (error) {
        toast.error(errorMessageOr(error, 'No se pudieron cargar más chats.'));
      }
    },
    onRenameCard: (card) => void renameCard(card),
    onMoveCardToFunnel: (card) =>
      modal.open((close) => (
        <MoveCardDialog
          cardId={card.id}
          cardTitle={card.title}
          currentFunnelId={card.funnelId}
          funnels={funnelList}
          onMoved={() => {
            setBoard((current) => removeCard(current, card.id));
            if (openCardId === card.id) setOpenCardId(null);
          }}
          onClose={close}
        />
      )),
  };

  // Socket, session and board updates render this page often: the cards (memoised) get handlers that stay the same.
  const actions = useStableHandlers(latestActions);

  const openCard = findCard(board.data, openCardId ?? '');
  const patchOpenCard = useCallback(
    (patch: Partial<ChatCard>) => {
      if (openCardId) live.patchShownCard(openCardId, patch);
    },
    [openCardId, live],
  );
  const counters = board.data?.counters ?? { unreadIndividual: 0, unreadGroup: 0, totalContacts: 0 };

  return (
    <div className="flex h-full min-h-[480px] flex-col">
      <div className="flex flex-wrap items-center gap-3 border-b border-slate-200 bg-white px-4 py-3 sm:px-6">
        <h1 className="text-xl font-bold tracking-tight text-slate-900">Sales Funnel</h1>
        {funnelList.length > 0 && funnelId && (
          <FunnelSelector
            funnels={funnelList}
            selectedId={funnelId}
            onSelect={selectFunnel}
            onRename={canWrite ? (funnel, name) => void renameFunnel(funnel, name) : undefined}
          />
        )}
        {canManage && (
          <Button size="sm" variant="secondary" onClick={() => void createFunnel()}>
            + Nuevo Funnel
          </Button>
        )}
        <div className="flex flex-wrap items-center gap-2">
          <Counter label="Individuales" value={counters.unreadIndividual} testId="counter-individual" />
          <Counter label="Grupales" value={counters.unreadGroup} testId="counter-group" />
          <Counter label="Contactos" value={counters.totalContacts} testId="counter-contacts" />
        </div>
        <div className="ml-auto flex flex-wrap items-center gap-2">
          <button
            type="button"
            role="switch"
            aria-checked={soundOn}
            aria-label="Sonido de notificaciones"
            title={soundOn ? 'Sonido activado' : 'Sonido desactivado'}
            onClick={toggleSound}
            className={`grid size-8 place-items-center rounded-lg ring-1 ring-slate-300 hover:bg-slate-50 ${soundOn ? 'text-emerald-700' : 'text-slate-400'}`}
          >
            <svg
              viewBox="0 0 24 24"
              className="size-4"
              fill="none"
              stroke="currentColor"
              strokeWidth="1.8"
              strokeLinecap="round"
              strokeLinejoin="round"
              aria-hidden="true"
            >
              <path d="M6 8a6 6 0 1 1 12 0c0 7 3 9 3 9H3s3-2 3-9M10.3 21a1.94 1.94 0 0 0 3.4 0" />
              {!soundOn && <path d="m3 3 18 18" />}
            </svg>
          </button>
          <Button
            size="sm"
            variant="secondary"
            onClick={() => {
              refetchFunnels();
              refetchBoard();
            }}
            loading={board.isFetching && !board.isLoading}
          >
            Actualizar
          </Button>
          {canWrite && (
            <>
              <Button size="sm" variant="secondary" onClick={() => void createColumn()} disabled={!funnelId}>
                + Nueva Columna
              </Button>
              <Button
                size="sm"
                disabled={!funnelId || !board.data}
                onClick={() => {
                  if (funnelId && board.data) modal.open((close) => <BulkSendWizard funnelId={funnelId} columns={board.data.columns} onClose={close} />);
                }}
              >
                Envío Masivo
              </Button>
            </>
          )}
        </div>
      </div>

      <div className="flex min-h-0 flex-1">
        <div className="min-w-0 flex-1 overflow-x-auto">
          {funnels.isLoading || board.isLoading ? (
            <div className="grid h-full place-items-center text-slate-400">
              <Spinner className="size-8" />
            </div>
          ) : funnels.isError ? (
            <p role="alert" className="p-8 text-center text-sm text-rose-600">
              {errorMessageOr(funnels.error, 'No se pudieron cargar los funnels.')}
            </p>
          ) : board.isError ? (
            <p role="alert" className="p-8 text-center text-sm text-rose-600">
              {errorMessageOr(board.error, 'No se pudo cargar el tablero.')}
            </p>
          ) : funnelList.length === 0 ? (
            <p className="p-8 text-center text-sm text-slate-500">
              {canManage
                ? "Aún no tienes funnels. Crea uno con '+ Nuevo Funnel'."
                : 'Aún no tienes acceso a ningún funnel. Pide a un administrador que te dé acceso.'}
            </p>
          ) : (
            <div className="flex h-full gap-3 p-4">
              {board.data?.columns.map((column) => (
                <BoardColumnView
                  key={column.id}
                  column={column}
                  openCardId={openCardId}
                  actions={actions}
                  readOnly={!canWrite}
                  aiUnavailableReason={aiUnavailableReason}
                />
              ))}
              {board.data?.columns.length === 0 && <p className="p-4 text-sm text-slate-500">Este funnel no tiene columnas. Crea una con '+ Nueva Columna'.</p>}
            </div>
          )}
        </div>
        {openCard && (
          <Suspense fallback={null}>
            <ChatPanel
              key={openCard.id}
              card={openCard}
              onClose={() => setOpenCardId(null)}
              onCardPatched={patchOpenCard}
              readOnly={!canWrite}
              aiUnavailableReason={aiUnavailableReason}
              column={board.data?.columns.find((column) => column.id === openCard.columnId)}
            />
          </Suspense>
        )}
      </div>
    </div>
  );
}
