import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessageOr } from '../../shared/api-client/api-error.ts';
import { Button } from '../../shared/ui/Button.tsx';
import { Modal } from '../../shared/ui/Modal.tsx';
import { useToast } from '../../shared/ui/use-toast.ts';
import { chatApi } from './chat.api.ts';
import { pendingMessage } from './pending-message.ts';
import { removeByTempId, upsertItem } from './timeline-cache.ts';
import { fillTemplate, TemplatePicker, templateChoiceComplete, type TemplateChoice } from './TemplatePicker.tsx';
import { useApprovedTemplates } from './use-approved-templates.ts';
import { useTimelineUpdater } from './use-timeline.ts';

/** Sends an approved template: shown at once, removed again if the send fails (spec 01 §8). */
export function TemplateSendDialog({ cardId, columnId, onClose }: { cardId: string; columnId: string; onClose: () => void }) {
  const toast = useToast();
  const updateTimeline = useTimelineUpdater();
  const { templates, isLoading } = useApprovedTemplates(columnId);
  const [choice, setChoice] = useState<TemplateChoice>({ templateId: '', variables: {} });
  const ready = templateChoiceComplete(templates, choice);

  const send = useMutation({
    mutationFn: (tempId: string) => chatApi.sendTemplate({ cardId, templateId: choice.templateId, variables: choice.variables, tempId }),
    onMutate: (tempId) => {
      const template = templates.find((candidate) => candidate.id === choice.templateId)!;
      const optimistic = pendingMessage({ cardId, type: 'template', text: fillTemplate(template, choice.variables), tempId });
      updateTimeline(cardId, (data) => upsertItem(data, { kind: 'message', ...optimistic }));
      onClose();
    },
    onSuccess: (message) => {
      if (message?.id) updateTimeline(cardId, (data) => upsertItem(data, { kind: 'message', ...message }));
    },
    onError: (error, tempId) => {
      updateTimeline(cardId, (data) => removeByTempId(data, tempId));
      toast.error(errorMessageOr(error, 'Error al enviar la plantilla.'));
    },
  });

  return (
    <Modal
      title="Enviar plantilla"
      onClose={onClose}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancelar
          </Button>
          <Button disabled={!ready} onClick={() => send.mutate(crypto.randomUUID())}>
            Enviar Plantilla
          </Button>
        </>
      }
    >
      {isLoading ? (
        <p className="text-sm text-slate-500">Cargando plantillas…</p>
      ) : templates.length === 0 ? (
        <p className="text-sm text-slate-500">No hay plantillas aprobadas. Crea y aprueba una plantilla para poder enviarla.</p>
      ) : (
        <TemplatePicker templates={templates} value={choice} onChange={setChoice} />
      )}
    </Modal>
  );
}
