import { useMutation } from '@tanstack/react-query';
import { errorMessageOr } from '../../shared/api-client/api-error.ts';
import { Spinner } from '../../shared/ui/Spinner.tsx';
import { useToast } from '../../shared/ui/use-toast.ts';
import { chatApi } from './chat.api.ts';
import { icon, IconButton } from './ComposerIconButton.tsx';
import { upsertItem } from './timeline-cache.ts';
import { useTimelineUpdater } from './use-timeline.ts';

export const SUGGEST_FAILED = 'No se pudo sugerir una respuesta.';
export const SUMMARY_FAILED = 'No se pudo resumir la conversación.';
export const SUMMARY_ADDED = 'Resumen agregado a Notas Internas.';

/**
 * The agent's copilot (issue 15): a drafted reply goes into the composer for the agent to edit and send, never
 * straight to the customer; a summary is kept as an internal note.
 */
export function CopilotActions({ cardId, onDraft }: { cardId: string; onDraft: (text: string) => void }) {
  const toast = useToast();
  const updateTimeline = useTimelineUpdater();

  const suggest = useMutation({
    mutationFn: () => chatApi.suggestReply(cardId),
    onSuccess: ({ text }) => (text.trim() ? onDraft(text.trim()) : toast.info('La IA no tiene una respuesta que sugerir.')),
    onError: (error) => toast.error(errorMessageOr(error, SUGGEST_FAILED)),
  });
  const summarize = useMutation({
    mutationFn: () => chatApi.summarize(cardId),
    onSuccess: ({ note }) => {
      updateTimeline(cardId, (data) => upsertItem(data, { kind: 'note', ...note }));
      toast.success(SUMMARY_ADDED);
    },
    onError: (error) => toast.error(errorMessageOr(error, SUMMARY_FAILED)),
  });

  return (
    <>
      <IconButton
        label="Sugerir respuesta"
        title={suggest.isPending ? 'Sugiriendo respuesta…' : 'Sugerir respuesta'}
        disabled={suggest.isPending}
        onClick={() => suggest.mutate()}
      >
        {suggest.isPending ? (
          <Spinner className="size-4" />
        ) : (
          icon('M12 3l1.8 4.2L18 9l-4.2 1.8L12 15l-1.8-4.2L6 9l4.2-1.8zM19 15l.9 2.1L22 18l-2.1.9L19 21l-.9-2.1L16 18l2.1-.9z')
        )}
      </IconButton>
      <IconButton
        label="Resumir conversación"
        title={summarize.isPending ? 'Resumiendo…' : 'Resumir conversación'}
        disabled={summarize.isPending}
        onClick={() => summarize.mutate()}
      >
        {summarize.isPending ? <Spinner className="size-4" /> : icon('M5 5h14M5 10h14M5 15h9M5 20h6')}
      </IconButton>
    </>
  );
}
