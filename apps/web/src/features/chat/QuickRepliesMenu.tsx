import { useCallback, useRef, useState } from 'react';
import { useDismiss } from '../../shared/hooks/use-dismiss.ts';
import { errorMessageOr } from '../../shared/api-client/api-error.ts';
import { Spinner } from '../../shared/ui/Spinner.tsx';
import type { QuickReply } from '../board/board.api.ts';
import { useQuickReplies } from '../board/use-quick-replies.ts';
import { icon, IconButton } from './ComposerIconButton.tsx';

/** The footer's quick replies: the chat's column's canned answers; picking one fills the message box. */
export function QuickRepliesMenu({ columnId, disabled, onPick }: { columnId: string; disabled: boolean; onPick: (reply: QuickReply) => void }) {
  const [open, setOpen] = useState(false);
  const replies = useQuickReplies(columnId, open);
  const holder = useRef<HTMLDivElement>(null);

  const close = useCallback(() => setOpen(false), []);
  useDismiss(holder, open, close);

  return (
    <div ref={holder} className="relative">
      <IconButton label="Respuestas rápidas" disabled={disabled} onClick={() => setOpen((value) => !value)}>
        {icon('M13 2 3 14h9l-1 8 10-12h-9z')}
      </IconButton>
      {open && (
        <div
          role="menu"
          aria-label="Respuestas rápidas"
          className="absolute bottom-11 left-0 z-30 max-h-72 w-72 overflow-y-auto rounded-xl bg-white py-1 text-sm shadow-xl ring-1 ring-slate-200"
        >
          {replies.isLoading && (
            <div className="flex justify-center py-3 text-slate-400">
              <Spinner className="size-4" />
            </div>
          )}
          {replies.isError && <p className="px-3 py-2 text-rose-600">{errorMessageOr(replies.error, 'Error al cargar respuestas rápidas')}</p>}
          {replies.data?.length === 0 && (
            <p className="px-3 py-2 text-slate-500">Esta columna no tiene respuestas rápidas. Créalas en Configuración de columna.</p>
          )}
          {replies.data?.map((reply) => (
            <button
              key={reply.id}
              type="button"
              role="menuitem"
              onClick={() => {
                setOpen(false);
                onPick(reply);
              }}
              className="block w-full px-3 py-2 text-left hover:bg-slate-50"
            >
              <span className="block font-semibold text-slate-800">{reply.title}</span>
              <span className="line-clamp-2 block text-xs text-slate-500">{reply.text}</span>
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
