import { useState } from 'react';
import { END_AFTER_START, weekdays, type Availability, type DayAvailability, type Weekday } from '@embudo/contracts/http/agenda';
import { agendaApi, type ProfessionalDto } from './agenda.api.ts';
import { AgendaFormDialog } from './AgendaFormDialog.tsx';
import { useDialogSave } from './use-dialog-save.ts';

const dayNames: Record<Weekday, string> = {
  monday: 'Lunes',
  tuesday: 'Martes',
  wednesday: 'Miércoles',
  thursday: 'Jueves',
  friday: 'Viernes',
  saturday: 'Sábado',
  sunday: 'Domingo',
};

const endsBeforeStart = (day: DayAvailability) => day.enabled && (!day.startTime || day.endTime <= day.startTime);

/** A professional's weekly hours: a draft per weekday (startTime, endTime, enabled), saved together. */
export function AvailabilityDialog({ professional, onSaved, onClose }: { professional: ProfessionalDto; onSaved: () => void; onClose: () => void }) {
  const [draft, setDraft] = useState<Availability>(professional.availability);
  const changeDay = (day: Weekday, patch: Partial<DayAvailability>) => setDraft((current) => ({ ...current, [day]: { ...current[day], ...patch } }));

  const form = useDialogSave({
    problem: () => {
      const wrongDay = weekdays.find((day) => endsBeforeStart(draft[day]));
      return wrongDay ? `${dayNames[wrongDay]}: ${END_AFTER_START}` : null;
    },
    save: () => agendaApi.updateProfessional(professional.id, { availability: draft }),
    success: 'Disponibilidad guardada',
    failure: 'Error al guardar.',
    onSaved,
    onClose,
  });

  return (
    <AgendaFormDialog
      title={`Disponibilidad de ${professional.name}`}
      description="Horario semanal en la zona horaria de la empresa."
      form={form}
      onClose={onClose}
    >
      {weekdays.map((day) => (
        <div key={day} data-testid="availability-day" data-day={day} className="grid grid-cols-[8rem_1fr_1fr] items-center gap-3">
          <label className="flex items-center gap-2 text-sm font-medium text-slate-700">
            <input
              type="checkbox"
              className="size-4 accent-emerald-600"
              checked={draft[day].enabled}
              onChange={(event) => changeDay(day, { enabled: event.target.checked })}
            />
            {dayNames[day]}
          </label>
          <input
            type="time"
            aria-label={`Inicio ${dayNames[day]}`}
            value={draft[day].startTime}
            disabled={!draft[day].enabled}
            aria-invalid={endsBeforeStart(draft[day]) || undefined}
            onChange={(event) => changeDay(day, { startTime: event.target.value })}
            className="rounded-lg border border-slate-300 px-2 py-1.5 text-sm disabled:bg-slate-50 disabled:text-slate-400 aria-invalid:border-rose-400"
          />
          <input
            type="time"
            aria-label={`Fin ${dayNames[day]}`}
            value={draft[day].endTime}
            disabled={!draft[day].enabled}
            aria-invalid={endsBeforeStart(draft[day]) || undefined}
            onChange={(event) => changeDay(day, { endTime: event.target.value })}
            className="rounded-lg border border-slate-300 px-2 py-1.5 text-sm disabled:bg-slate-50 disabled:text-slate-400 aria-invalid:border-rose-400"
          />
        </div>
      ))}
    </AgendaFormDialog>
  );
}
