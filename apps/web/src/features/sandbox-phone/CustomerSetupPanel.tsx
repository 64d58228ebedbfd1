import { useId } from 'react';
import { TextField } from '../../shared/ui/TextField.tsx';
import { groupIdProblem, phoneProblem, type CustomerSetup } from './customer-setup.ts';

export interface CustomerSetupPanelProps {
  setup: CustomerSetup;
  onChange: (changes: Partial<CustomerSetup>) => void;
}

const digitsOnly = (value: string) => value.replace(/\D/g, '');

/** As which customer (or group) to write to the signed-in member's company. */
export function CustomerSetupPanel({ setup, onChange }: CustomerSetupPanelProps) {
  const groupToggleId = useId();

  return (
    <div className="space-y-5">
      <TextField
        label="Teléfono del cliente"
        inputMode="numeric"
        autoComplete="off"
        value={setup.phone}
        onChange={(event) => onChange({ phone: digitsOnly(event.target.value) })}
        error={setup.phone ? phoneProblem(setup.phone) : null}
        hint="Con código de país, sin «+» ni espacios."
      />

      <TextField label="Nombre del cliente" autoComplete="off" maxLength={80} value={setup.name} onChange={(event) => onChange({ name: event.target.value })} />

      <div className="rounded-xl border border-slate-200 p-4">
        <div className="flex items-center justify-between gap-3">
          <label htmlFor={groupToggleId} className="text-sm font-medium text-slate-700">
            Escribir desde un grupo
          </label>
          <input
            id={groupToggleId}
            type="checkbox"
            role="switch"
            checked={setup.inGroup}
            onChange={(event) => onChange({ inGroup: event.target.checked })}
            className="relative h-6 w-11 shrink-0 cursor-pointer appearance-none rounded-full bg-slate-300 transition before:absolute before:top-0.5 before:left-0.5 before:size-5 before:rounded-full before:bg-white before:shadow before:transition checked:bg-emerald-600 checked:before:translate-x-5 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-600"
          />
        </div>
        {setup.inGroup && (
          <div className="mt-4 space-y-4">
            <TextField
              label="ID del grupo"
              inputMode="numeric"
              autoComplete="off"
              value={setup.groupId}
              onChange={(event) => onChange({ groupId: digitsOnly(event.target.value) })}
              error={setup.groupId ? groupIdProblem(setup.groupId) : null}
              hint="El identificador numérico que WhatsApp da al grupo."
            />
            <TextField
              label="Nombre del grupo"
              autoComplete="off"
              maxLength={80}
              value={setup.groupName}
              onChange={(event) => onChange({ groupName: event.target.value })}
            />
          </div>
        )}
      </div>
    </div>
  );
}
