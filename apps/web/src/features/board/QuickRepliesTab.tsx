import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { errorMessageOr } from '../../shared/api-client/api-error.ts';
import { Button } from '../../shared/ui/Button.tsx';
import { FormAlert } from '../../shared/ui/FormAlert.tsx';
import { Spinner } from '../../shared/ui/Spinner.tsx';
import { TextField } from '../../shared/ui/TextField.tsx';
import { useToast } from '../../shared/ui/use-toast.ts';
import { boardApi, type QuickReply } from './board.api.ts';
import { quickRepliesKey, useQuickReplies } from './use-quick-replies.ts';

export const QUICK_REPLY_REQUIRED = 'El título y el texto son requeridos.';

/** Column settings, tab Respuestas Rápidas: the column's canned answers (title and text required). */
export function QuickRepliesTab({ columnId }: { columnId: string }) {
  const toast = useToast();
  const id = useId();
  const queryClient = useQueryClient();
  const replies = useQuickReplies(columnId);
  const [editing, setEditing] = useState<QuickReply | null>(null);
  const [title, setTitle] = useState('');
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  // Only one modal may be open (spec 01 §2), so a delete is confirmed in its row.
  const [confirmingId, setConfirmingId] = useState<string | null>(null);

  useEffect(() => {
    if (replies.isError) toast.error(errorMessageOr(replies.error, 'Error al cargar respuestas rápidas'));
  }, [replies.isError, replies.error, toast]);

  const reset = () => {
    setEditing(null);
    setTitle('');
    setText('');
    setProblem(null);
  };
  const refresh = () => queryClient.invalidateQueries({ queryKey: quickRepliesKey(columnId) });

  const save = useMutation({
    mutationFn: () =>
      editing
        ? boardApi.updateQuickReply(editing.id, { title: title.trim(), text: text.trim() })
        : boardApi.createQuickReply({ columnId, title: title.trim(), text: text.trim() }),
    onSuccess: () => {
      toast.success('Respuesta rápida guardada.');
      reset();
      void refresh();
    },
    onError: (error) => toast.error(errorMessageOr(error, 'Error al guardar.')),
  });

  const remove = useMutation({
    mutationFn: (reply: QuickReply) => boardApi.deleteQuickReply(reply.id),
    onSuccess: (_answer, reply) => {
      toast.success('Respuesta rápida eliminada.');
      if (editing?.id === reply.id) reset();
      void refresh();
    },
    onError: (error) => toast.error(errorMessageOr(error, 'Error al eliminar.')),
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!title.trim() || !text.trim()) {
      setProblem(QUICK_REPLY_REQUIRED);
      return;
    }
    setProblem(null);
    save.mutate();
  };

  return (
    <div className="space-y-5">
      {replies.isLoading ? (
        <div className="flex justify-center py-4 text-slate-400">
          <Spinner />
        </div>
      ) : (
        <ul className="max-h-60 space-y-2 overflow-y-auto" aria-label="Respuestas rápidas de la columna">
          {(replies.data ?? []).length === 0 && (
            <li className="rounded-lg bg-slate-50 px-3 py-4 text-center text-sm text-slate-500">Esta columna aún no tiene respuestas rápidas.</li>
          )}
          {(replies.data ?? []).map((reply) => (
            <li key={reply.id} data-testid="quick-reply-row" className="flex items-start gap-3 rounded-lg bg-slate-50 px-3 py-2 ring-1 ring-slate-200">
              <div className="min-w-0 flex-1">
                <p className="truncate text-sm font-semibold text-slate-800">{reply.title}</p>
                <p className="line-clamp-2 whitespace-pre-wrap text-xs text-slate-600">{reply.text}</p>
              </div>
              {confirmingId === reply.id ? (
                <>
                  <Button
                    size="sm"
                    variant="danger"
                    loading={remove.isPending}
                    onClick={() => {
                      setConfirmingId(null);
                      remove.mutate(reply);
                    }}
                  >
                    Confirmar
                  </Button>
                  <Button size="sm" variant="secondary" onClick={() => setConfirmingId(null)}>
                    No
                  </Button>
                </>
              ) : (
                <>
                  <Button
                    size="sm"
                    variant="ghost"
                    aria-label={`Editar ${reply.title}`}
                    onClick={() => {
                      setEditing(reply);
                      setTitle(reply.title);
                      setText(reply.text);
                      setProblem(null);
                    }}
                  >
                    Editar
                  </Button>
                  <Button size="sm" variant="ghost" aria-label={`Eliminar ${reply.title}`} className="text-rose-600" onClick={() => setConfirmingId(reply.id)}>
                    Eliminar
                  </Button>
                </>
              )}
            </li>
          ))}
        </ul>
      )}

      <form noValidate onSubmit={onSubmit} className="space-y-3 rounded-xl border border-slate-200 p-4">
        <p className="text-sm font-semibold text-slate-800">{editing ? 'Editar respuesta rápida' : 'Nueva respuesta rápida'}</p>
        <FormAlert message={problem} />
        <TextField label="Título" value={title} maxLength={100} onChange={(event) => setTitle(event.target.value)} />
        <div>
          <label htmlFor={`${id}-text`} className="mb-1.5 block text-sm font-medium text-slate-700">
            Texto
          </label>
          <textarea
            id={`${id}-text`}
            rows={3}
            value={text}
            maxLength={4096}
            onChange={(event) => setText(event.target.value)}
            className="block w-full rounded-lg border border-slate-300 px-3 py-2 text-sm shadow-sm outline-none focus:border-emerald-500 focus:ring-4 focus:ring-emerald-100"
          />
        </div>
        <div className="flex justify-end gap-2">
          {editing && (
            <Button variant="secondary" onClick={reset}>
              Cancelar
            </Button>
          )}
          <Button type="submit" loading={save.isPending}>
            Guardar
          </Button>
        </div>
      </form>
    </div>
  );
}
