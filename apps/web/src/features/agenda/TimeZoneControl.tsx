import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useMemo } from 'react';
import { errorMessageOr } from '../../shared/api-client/api-error.ts';
import { useToast } from '../../shared/ui/use-toast.ts';
import { agendaApi, agendaKeys } from './agenda.api.ts';

/** Every zone the browser knows, with the current one even when the list leaves it out (e.g. UTC). */
function timeZoneChoices(current: string): string[] {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return known.includes(current) ? known : [current, ...known];
}

/** The company's time zone: days and free times of the agenda follow it; only the owner changes it. */
export function TimeZoneControl({ timezone, editable }: { timezone: string; editable: boolean }) {
  const id = useId();
  const toast = useToast();
  const queryClient = useQueryClient();
  const choices = useMemo(() => timeZoneChoices(timezone), [timezone]);
  const save = useMutation({
    mutationFn: (next: string) => agendaApi.saveSettings({ timezone: next }),
    onSuccess: (settings) => {
      queryClient.setQueryData(agendaKeys.settings, settings);
      void queryClient.invalidateQueries({ queryKey: agendaKeys.all });
      toast.success('Zona horaria guardada');
    },
    onError: (error) => toast.error(errorMessageOr(error, 'Error al guardar.')),
  });

  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-xs font-semibold tracking-wide text-slate-500 uppercase">
        Zona horaria
      </label>
      {editable ? (
        <select
          id={id}
          value={timezone}
          disabled={save.isPending}
          onChange={(event) => save.mutate(event.target.value)}
          className="block w-full rounded-lg border border-slate-300 bg-white px-2 py-1.5 text-sm text-slate-800 outline-none focus:border-emerald-500 focus:ring-4 focus:ring-emerald-100"
        >
          {choices.map((zone) => (
            <option key={zone} value={zone}>
              {zone}
            </option>
          ))}
        </select>
      ) : (
        <output id={id} className="block text-sm text-slate-700">
          {timezone}
        </output>
      )}
    </div>
  );
}
