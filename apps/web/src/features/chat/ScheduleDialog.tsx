import { useMutation } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { errorMessageOr } from '../../shared/api-client/api-error.ts';
import { Button } from '../../shared/ui/Button.tsx';
import { FormAlert } from '../../shared/ui/FormAlert.tsx';
import { Modal } from '../../shared/ui/Modal.tsx';
import { useToast } from '../../shared/ui/use-toast.ts';
import { chatApi } from './chat.api.ts';
import { scheduledOutsideWindow, scheduleProblem, type ScheduleDraft } from './schedule-rules.ts';
import { TemplatePicker, type TemplateChoice } from './TemplatePicker.tsx';
import { useApprovedTemplates } from './use-approved-templates.ts';
import { useTimelineUpdater } from './use-timeline.ts';
import { upsertItem } from './timeline-cache.ts';

interface ScheduleDialogProps {
  cardId: string;
  columnId: string;
  contactLastMessageAt: string | null | undefined;
  onClose: () => void;
}

/** Schedule a message: free text inside the 24-hour window, a template outside it (spec 01 §5). */
export function ScheduleDialog({ cardId, columnId, contactLastMessageAt, onClose }: ScheduleDialogProps) {
  const toast = useToast();
  const id = useId();
  const updateTimeline = useTimelineUpdater();
  const { templates } = useApprovedTemplates(columnId);
  const [when, setWhen] = useState('');
  const [mode, setMode] = useState<ScheduleDraft['mode']>('text');
  const [text, setText] = useState('');
  const [choice, setChoice] = useState<TemplateChoice>({ templateId: '', variables: {} });
  const [problem, setProblem] = useState<string | null>(null);

  const scheduledFor = when ? new Date(when) : null;
  const outside = scheduledFor && !Number.isNaN(scheduledFor.getTime()) ? scheduledOutsideWindow(scheduledFor, contactLastMessageAt) : false;

  const schedule = useMutation({
    mutationFn: () =>
      chatApi.schedule({
        cardId,
        scheduledFor: scheduledFor!.toISOString(),
        ...(mode === 'template' ? { templateId: choice.templateId, variables: choice.variables } : { text: text.trim() }),
      }),
    onSuccess: (item) => {
      if (item && typeof item === 'object' && 'id' in item) updateTimeline(cardId, (data) => upsertItem(data, { kind: 'scheduled', ...item }));
      toast.success('Mensaje programado con éxito.');
      onClose();
    },
    onError: (error) => toast.error(errorMessageOr(error, 'Error: No se pudo programar el mensaje.')),
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const found = scheduleProblem({ scheduledFor, mode, text, templateId: choice.templateId }, contactLastMessageAt);
    setProblem(found);
    if (!found) schedule.mutate();
  };

  return (
    <Modal
      title="Programar mensaje"
      onClose={onClose}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancelar
          </Button>
          <Button type="submit" form={id} loading={schedule.isPending}>
            Programar
          </Button>
        </>
      }
    >
      <form id={id} noValidate onSubmit={onSubmit} className="space-y-4">
        <FormAlert message={problem} />
        <div>
          <label htmlFor={`${id}-when`} className="mb-1.5 block text-sm font-medium text-slate-700">
            Fecha y hora
          </label>
          <input
            id={`${id}-when`}
            type="datetime-local"
            step={1}
            value={when}
            onChange={(event) => setWhen(event.target.value)}
            className="block w-full rounded-lg border border-slate-300 px-3 py-2.5 text-sm shadow-sm outline-none focus:border-emerald-500 focus:ring-4 focus:ring-emerald-100"
          />
          {outside && <p className="mt-1.5 text-xs text-amber-700">Fuera de la ventana de 24 horas: solo se puede programar una plantilla.</p>}
        </div>
        <div role="radiogroup" aria-label="Tipo de mensaje" className="flex gap-4 text-sm">
          <label className="flex items-center gap-2">
            <input type="radio" name={`${id}-mode`} checked={mode === 'text'} onChange={() => setMode('text')} /> Texto
          </label>
          <label className="flex items-center gap-2">
            <input type="radio" name={`${id}-mode`} checked={mode === 'template'} onChange={() => setMode('template')} /> Plantilla
          </label>
        </div>
        {mode === 'text' ? (
          <div>
            <label htmlFor={`${id}-text`} className="mb-1.5 block text-sm font-medium text-slate-700">
              Mensaje
            </label>
            <textarea
              id={`${id}-text`}
              rows={4}
              value={text}
              onChange={(event) => setText(event.target.value)}
              className="block w-full rounded-lg border border-slate-300 px-3 py-2 text-sm shadow-sm outline-none focus:border-emerald-500 focus:ring-4 focus:ring-emerald-100"
            />
          </div>
        ) : templates.length === 0 ? (
          <p className="text-sm text-slate-500">No hay plantillas aprobadas.</p>
        ) : (
          <TemplatePicker templates={templates} value={choice} onChange={setChoice} />
        )}
      </form>
    </Modal>
  );
}
