import { SelectField } from '../../shared/ui/SelectField.tsx';
import type { ProfessionalDto } from './agenda.api.ts';

/** "Profesional" in the appointment and time-block dialogs. */
export function ProfessionalSelect({
  professionals,
  value,
  onChange,
  className,
}: {
  professionals: ProfessionalDto[];
  value: string;
  onChange: (professionalId: string) => void;
  className?: string;
}) {
  return (
    <SelectField
      label="Profesional"
      className={className}
      value={value}
      hint={professionals.length === 0 ? 'Aún no hay profesionales: añade uno en la barra lateral de la agenda.' : undefined}
      onChange={(event) => onChange(event.target.value)}
    >
      <option value="">Selecciona un profesional</option>
      {professionals.map((entry) => (
        <option key={entry.id} value={entry.id}>
          {entry.name}
        </option>
      ))}
    </SelectField>
  );
}
