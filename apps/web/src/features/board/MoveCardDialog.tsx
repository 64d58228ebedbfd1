import { useMutation, useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { errorMessageOr } from '../../shared/api-client/api-error.ts';
import { Button } from '../../shared/ui/Button.tsx';
import { Modal } from '../../shared/ui/Modal.tsx';
import { useToast } from '../../shared/ui/use-toast.ts';
import { boardApi, type FunnelSummary } from './board.api.ts';

const selectClass =
  'block w-full rounded-lg border border-slate-300 bg-white px-3 py-2.5 text-sm shadow-sm outline-none focus:border-emerald-500 focus:ring-4 focus:ring-emerald-100 disabled:bg-slate-100';

interface MoveCardDialogProps {
  cardId: string;
  cardTitle: string;
  currentFunnelId: string;
  funnels: FunnelSummary[];
  onMoved: () => void;
  onClose: () => void;
}

/** Mover a funnel: another funnel, then one of its columns (spec 01 §2 Move-card dialog). */
export function MoveCardDialog({ cardId, cardTitle, currentFunnelId, funnels, onMoved, onClose }: MoveCardDialogProps) {
  const toast = useToast();
  const id = useId();
  const [funnelId, setFunnelId] = useState('');
  const [columnId, setColumnId] = useState('');
  const others = funnels.filter((funnel) => funnel.id !== currentFunnelId);
  const columns = useQuery({ queryKey: ['funnel-columns', funnelId], queryFn: () => boardApi.columns(funnelId), enabled: funnelId !== '' });

  const move = useMutation({
    mutationFn: () => boardApi.moveCard(cardId, columnId),
    onSuccess: () => {
      toast.success('Chat movido a otro funnel.');
      onMoved();
      onClose();
    },
    onError: (error) => toast.error(errorMessageOr(error, 'Error al mover el chat.')),
  });

  return (
    <Modal
      title="Mover a funnel"
      description={cardTitle}
      onClose={onClose}
      size="sm"
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancelar
          </Button>
          <Button disabled={!funnelId || !columnId} loading={move.isPending} onClick={() => move.mutate()}>
            Mover Chat
          </Button>
        </>
      }
    >
      <div className="space-y-4">
        <div>
          <label htmlFor={`${id}-funnel`} className="mb-1.5 block text-sm font-medium text-slate-700">
            Funnel de destino
          </label>
          <select
            id={`${id}-funnel`}
            value={funnelId}
            className={selectClass}
            onChange={(event) => {
              setFunnelId(event.target.value);
              setColumnId('');
            }}
          >
            <option value="">Selecciona un funnel</option>
            {others.map((funnel) => (
              <option key={funnel.id} value={funnel.id}>
                {funnel.name}
              </option>
            ))}
          </select>
          {others.length === 0 && <p className="mt-1.5 text-xs text-slate-500">No hay otros funnels.</p>}
        </div>
        <div>
          <label htmlFor={`${id}-column`} className="mb-1.5 block text-sm font-medium text-slate-700">
            Columna
          </label>
          <select
            id={`${id}-column`}
            value={columnId}
            disabled={!funnelId || columns.isLoading}
            className={selectClass}
            onChange={(event) => setColumnId(event.target.value)}
          >
            <option value="">{columns.isLoading ? 'Cargando columnas…' : 'Selecciona una columna'}</option>
            {(columns.data ?? []).map((column) => (
              <option key={column.id} value={column.id}>
                {column.title}
              </option>
            ))}
          </select>
          {funnelId && columns.data?.length === 0 && (
            <p className="mt-1.5 text-xs text-slate-500">Este funnel no tiene columnas. Crea una antes de mover chats a él.</p>
          )}
          {columns.isError && <p className="mt-1.5 text-xs text-rose-600">{errorMessageOr(columns.error, 'Error al cargar las columnas.')}</p>}
        </div>
      </div>
    </Modal>
  );
}
