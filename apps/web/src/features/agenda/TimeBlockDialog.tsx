import { useMutation } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { errorMessageOr } from '../../shared/api-client/api-error.ts';
import { FormAlert } from '../../shared/ui/FormAlert.tsx';
import { Modal } from '../../shared/ui/Modal.tsx';
import { SelectField } from '../../shared/ui/SelectField.tsx';
import { TextField } from '../../shared/ui/TextField.tsx';
import { useToast } from '../../shared/ui/use-toast.ts';
import { timeBlockPayload, timeBlockProblem, type TimeBlockDraft } from './agenda-drafts.ts';
import { agendaApi, type ProfessionalDto } from './agenda.api.ts';
import { AgendaDialogFooter } from './AgendaDialogFooter.tsx';

interface TimeBlockDialogProps {
  timeBlockId?: string;
  initial: TimeBlockDraft;
  professionals: ProfessionalDto[];
  readOnly: boolean;
  onSaved: () => void;
  onDelete?: () => void;
  onClose: () => void;
}

/** A stretch of a professional's time that is blocked (the default) or opened outside the weekly hours. */
export function TimeBlockDialog({ timeBlockId, initial, professionals, readOnly, onSaved, onDelete, onClose }: TimeBlockDialogProps) {
  const toast = useToast();
  const formId = useId();
  const [draft, setDraft] = useState(initial);
  const [problem, setProblem] = useState<string | null>(null);
  const change = (patch: Partial<TimeBlockDraft>) => setDraft((current) => ({ ...current, ...patch }));

  const save = useMutation({
    mutationFn: () => {
      const payload = timeBlockPayload(draft);
      return timeBlockId ? agendaApi.updateTimeBlock(timeBlockId, payload) : agendaApi.createTimeBlock(payload);
    },
    onSuccess: () => {
      toast.success('Bloque de tiempo guardado');
      onSaved();
      onClose();
    },
    onError: (error) => toast.error(errorMessageOr(error, 'Error al guardar el bloque.')),
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const found = timeBlockProblem(draft);
    setProblem(found);
    if (!found) save.mutate();
  };

  return (
    <Modal
      title={readOnly ? 'Bloque de tiempo' : timeBlockId ? 'Editar bloque de tiempo' : 'Nuevo bloque de tiempo'}
      onClose={onClose}
      size="lg"
      footer={<AgendaDialogFooter formId={formId} saving={save.isPending} onCancel={onClose} onDelete={onDelete} readOnly={readOnly} />}
    >
      <form id={formId} noValidate onSubmit={onSubmit}>
        <fieldset disabled={readOnly} className="grid gap-4 sm:grid-cols-2">
          <div className="sm:col-span-2">
            <FormAlert message={problem} />
          </div>
          <SelectField label="Profesional" className="sm:col-span-2" value={draft.professionalId} onChange={(event) => change({ professionalId: event.target.value })}>
            <option value="">Selecciona un profesional</option>
            {professionals.map((entry) => (
              <option key={entry.id} value={entry.id}>
                {entry.name}
              </option>
            ))}
          </SelectField>
          <TextField label="Fecha de inicio" type="date" value={draft.startDate} onChange={(event) => change({ startDate: event.target.value })} />
          <TextField label="Hora de inicio" type="time" value={draft.startTime} onChange={(event) => change({ startTime: event.target.value })} />
          <TextField label="Fecha de fin" type="date" value={draft.endDate} onChange={(event) => change({ endDate: event.target.value })} />
          <TextField label="Hora de fin" type="time" value={draft.endTime} onChange={(event) => change({ endTime: event.target.value })} />
          <TextField label="Motivo" className="sm:col-span-2" placeholder="Almuerzo, vacaciones, trámite…" maxLength={500} value={draft.reason} onChange={(event) => change({ reason: event.target.value })} />
          <label className="flex items-start gap-2 text-sm text-slate-700 sm:col-span-2">
            <input type="checkbox" className="mt-0.5 size-4 accent-emerald-600" checked={draft.isAvailable} onChange={(event) => change({ isAvailable: event.target.checked })} />
            <span>
              Disponible
              <span className="block text-xs text-slate-500">Marca esta casilla para abrir este horario fuera del horario semanal; sin marcar, el horario queda bloqueado para citas.</span>
            </span>
          </label>
        </fieldset>
      </form>
    </Modal>
  );
}
