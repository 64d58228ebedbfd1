import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent, type KeyboardEvent } from 'react';
import { errorMessageOr } from '../../shared/api-client/api-error.ts';
import { Button } from '../../shared/ui/Button.tsx';
import { useToast } from '../../shared/ui/use-toast.ts';
import { chatApi, type ChatNote } from './chat.api.ts';
import { isSubmitEnter } from './enter-submits.ts';
import { upsertItem } from './timeline-cache.ts';
import { useTimelineUpdater } from './use-timeline.ts';

/** Notas Internas: notes the team keeps on the chat, never sent to the contact. */
export function NotesTab({ cardId, notes, readOnly = false }: { cardId: string; notes: ChatNote[]; readOnly?: boolean }) {
  const toast = useToast();
  const updateTimeline = useTimelineUpdater();
  const [text, setText] = useState('');

  const add = useMutation({
    mutationFn: (value: string) => chatApi.addNote(cardId, value),
    onSuccess: (note) => {
      updateTimeline(cardId, (data) => upsertItem(data, { kind: 'note', ...note }));
      setText('');
    },
    onError: (error) => toast.error(errorMessageOr(error, 'Error al guardar la nota.')),
  });

  const submit = () => {
    const trimmed = text.trim();
    if (trimmed && !add.isPending) add.mutate(trimmed);
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    submit();
  };
  // As in the message composer: Enter adds the note, Shift+Enter starts a new line.
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (!isSubmitEnter(event)) return;
    event.preventDefault();
    submit();
  };

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <ul className="min-h-0 flex-1 space-y-2 overflow-y-auto px-4 py-3" aria-label="Notas internas">
        {notes.length === 0 && <li className="py-8 text-center text-sm text-slate-400">Sin notas internas.</li>}
        {notes.map((note) => (
          <li key={note.id} data-testid="chat-note" className="rounded-xl bg-amber-50 px-3 py-2 text-sm text-amber-900 ring-1 ring-amber-200">
            <p className="text-[11px] font-semibold">
              {note.author ?? 'Equipo'} · {new Date(note.raw_timestamp).toLocaleString('es')}
            </p>
            <p className="whitespace-pre-wrap">{note.text}</p>
          </li>
        ))}
      </ul>
      {!readOnly && (
        <form onSubmit={onSubmit} className="flex items-end gap-2 border-t border-slate-200 bg-white px-3 py-2">
          <textarea
            rows={2}
            value={text}
            onChange={(event) => setText(event.target.value)}
            onKeyDown={onKeyDown}
            placeholder="Escribe una nota interna…"
            aria-label="Nota interna"
            className="flex-1 resize-none rounded-lg border border-slate-300 px-3 py-2 text-sm outline-none focus:border-amber-500"
          />
          <Button type="submit" size="sm" disabled={!text.trim()} loading={add.isPending}>
            Agregar Nota
          </Button>
        </form>
      )}
    </div>
  );
}
