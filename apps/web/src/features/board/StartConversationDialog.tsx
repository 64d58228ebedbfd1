import { useMutation } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { errorMessageOr } from '../../shared/api-client/api-error.ts';
import { Button } from '../../shared/ui/Button.tsx';
import { Modal } from '../../shared/ui/Modal.tsx';
import { useToast } from '../../shared/ui/use-toast.ts';
import { TemplatePicker, templateChoiceComplete, type TemplateChoice } from '../chat/TemplatePicker.tsx';
import { useApprovedTemplates } from '../chat/use-approved-templates.ts';
import { boardApi } from './board.api.ts';

/** '+ Iniciar Conversación': step 1 the phone (country code + number, digits only), step 2 an approved template. */
export function StartConversationDialog({ columnId, onStarted, onClose }: { columnId: string; onStarted: () => void; onClose: () => void }) {
  const toast = useToast();
  const id = useId();
  const [step, setStep] = useState<1 | 2>(1);
  const [phone, setPhone] = useState('');
  const [choice, setChoice] = useState<TemplateChoice>({ templateId: '', variables: {} });
  const { templates, isLoading } = useApprovedTemplates(columnId);

  const start = useMutation({
    mutationFn: () => boardApi.initiateConversation({ templateId: choice.templateId, phoneNumber: phone, variables: choice.variables, columnId }),
    onSuccess: () => {
      toast.success('Conversación iniciada con éxito.');
      onStarted();
      onClose();
    },
    onError: (error) => toast.error(errorMessageOr(error, 'Error al iniciar la conversación')),
  });

  return (
    <Modal
      title="Iniciar Conversación"
      description={step === 1 ? 'Paso 1 de 2: número de teléfono' : 'Paso 2 de 2: plantilla'}
      onClose={onClose}
      footer={
        step === 1 ? (
          <>
            <Button variant="secondary" onClick={onClose}>
              Cancelar
            </Button>
            <Button disabled={phone === ''} onClick={() => setStep(2)}>
              Siguiente
            </Button>
          </>
        ) : (
          <>
            <Button variant="secondary" onClick={() => setStep(1)}>
              Atrás
            </Button>
            <Button disabled={!templateChoiceComplete(templates, choice)} loading={start.isPending} onClick={() => start.mutate()}>
              Enviar
            </Button>
          </>
        )
      }
    >
      {step === 1 ? (
        <div>
          <label htmlFor={`${id}-phone`} className="mb-1.5 block text-sm font-medium text-slate-700">
            Teléfono
          </label>
          <input
            id={`${id}-phone`}
            inputMode="numeric"
            value={phone}
            placeholder="5215512345678"
            onChange={(event) => setPhone(event.target.value.replace(/\D/g, ''))}
            onKeyDown={(event) => {
              if (event.key === 'Enter' && phone !== '') setStep(2);
            }}
            className="block w-full rounded-lg border border-slate-300 px-3 py-2.5 text-sm shadow-sm outline-none focus:border-emerald-500 focus:ring-4 focus:ring-emerald-100"
          />
          <p className="mt-1.5 text-xs text-slate-500">Código de país y número, sin + ni espacios.</p>
        </div>
      ) : isLoading ? (
        <p className="text-sm text-slate-500">Cargando plantillas…</p>
      ) : templates.length === 0 ? (
        <p className="text-sm text-slate-500">No hay plantillas aprobadas. Necesitas una plantilla aprobada para iniciar una conversación.</p>
      ) : (
        <TemplatePicker templates={templates} value={choice} onChange={setChoice} />
      )}
    </Modal>
  );
}
