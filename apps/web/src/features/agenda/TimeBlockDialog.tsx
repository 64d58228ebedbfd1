import { useState } from 'react';
import { TextField } from '../../shared/ui/TextField.tsx';
import { timeBlockPayload, timeBlockProblem, type TimeBlockDraft } from './agenda-drafts.ts';
import { agendaApi, type ProfessionalDto } from './agenda.api.ts';
import { AgendaFormDialog } from './AgendaFormDialog.tsx';
import { ProfessionalSelect } from './ProfessionalSelect.tsx';
import { useDialogSave } from './use-dialog-save.ts';

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
  const [draft, setDraft] = useState(initial);
  const change = (patch: Partial<TimeBlockDraft>) => setDraft((current) => ({ ...current, ...patch }));

  const form = useDialogSave({
    problem: () => timeBlockProblem(draft),
    save: () => {
      const payload = timeBlockPayload(draft);
      return timeBlockId ? agendaApi.updateTimeBlock(timeBlockId, payload) : agendaApi.createTimeBlock(payload);
    },
    success: 'Bloque de tiempo guardado',
    failure: 'Error al guardar el bloque.',
    onSaved,
    onClose,
  });

  return (
    <AgendaFormDialog
      title={readOnly ? 'Bloque de tiempo' : timeBlockId ? 'Editar bloque de tiempo' : 'Nuevo bloque de tiempo'}
      size="lg"
      layout="grid"
      form={form}
      onClose={onClose}
      onDelete={onDelete}
      readOnly={readOnly}
    >
      <ProfessionalSelect
        professionals={professionals}
        className="sm:col-span-2"
        value={draft.professionalId}
        onChange={(professionalId) => change({ professionalId })}
      />
      <TextField label="Fecha de inicio" type="date" value={draft.startDate} onChange={(event) => change({ startDate: event.target.value })} />
      <TextField label="Hora de inicio" type="time" value={draft.startTime} onChange={(event) => change({ startTime: event.target.value })} />
      <TextField label="Fecha de fin" type="date" value={draft.endDate} onChange={(event) => change({ endDate: event.target.value })} />
      <TextField label="Hora de fin" type="time" value={draft.endTime} onChange={(event) => change({ endTime: event.target.value })} />
      <TextField
        label="Motivo"
        className="sm:col-span-2"
        placeholder="Almuerzo, vacaciones, trámite…"
        maxLength={500}
        value={draft.reason}
        onChange={(event) => change({ reason: event.target.value })}
      />
      <label className="flex items-start gap-2 text-sm text-slate-700 sm:col-span-2">
        <input
          type="checkbox"
          className="mt-0.5 size-4 accent-emerald-600"
          checked={draft.isAvailable}
          onChange={(event) => change({ isAvailable: event.target.checked })}
        />
        <span>
          Disponible
          <span className="block text-xs text-slate-500">
            Marca esta casilla para abrir este horario fuera del horario semanal; sin marcar, el horario queda bloqueado para citas.
          </span>
        </span>
      </label>
    </AgendaFormDialog>
  );
}
