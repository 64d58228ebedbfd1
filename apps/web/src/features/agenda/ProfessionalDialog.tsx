import { useId, useState } from 'react';
import { professionalColors, type ProfessionalColor } from '@embudo/contracts/http/agenda';
import { TextField } from '../../shared/ui/TextField.tsx';
import { agendaApi, type ProfessionalDto, type ServiceDto } from './agenda.api.ts';
import { AgendaFormDialog } from './AgendaFormDialog.tsx';
import { professionalColorStyles } from './professional-colors.ts';
import { useDialogSave } from './use-dialog-save.ts';

interface ProfessionalDialogProps {
  professional?: ProfessionalDto;
  services: ServiceDto[];
  onSaved: () => void;
  onDelete?: () => void;
  onClose: () => void;
}

/** Add or edit a professional: name, one of the five colours and the services they offer. */
export function ProfessionalDialog({ professional, services, onSaved, onDelete, onClose }: ProfessionalDialogProps) {
  const colorGroup = useId();
  const [name, setName] = useState(professional?.name ?? '');
  const [color, setColor] = useState<ProfessionalColor>(professional?.color ?? 'purple');
  const [serviceIds, setServiceIds] = useState<string[]>(professional?.serviceIds ?? []);

  const form = useDialogSave({
    problem: () => (name.trim() ? null : 'El nombre del profesional es requerido.'),
    save: () => {
      const body = { name: name.trim(), color, serviceIds };
      return professional ? agendaApi.updateProfessional(professional.id, body) : agendaApi.createProfessional(body);
    },
    success: 'Profesional guardado',
    failure: 'Error al guardar.',
    onSaved,
    onClose,
  });

  const toggleService = (serviceId: string, on: boolean) =>
    setServiceIds((current) => (on ? [...current, serviceId] : current.filter((entry) => entry !== serviceId)));

  return (
    <AgendaFormDialog title={professional ? 'Editar profesional' : 'Nuevo profesional'} form={form} onClose={onClose} onDelete={onDelete}>
      <TextField label="Nombre" maxLength={120} value={name} onChange={(event) => setName(event.target.value)} />
      <fieldset>
        <legend className="mb-1.5 text-sm font-medium text-slate-700">Color</legend>
        <div className="flex flex-wrap gap-2">
          {professionalColors.map((option) => (
            <label
              key={option}
              className={`flex cursor-pointer items-center gap-2 rounded-lg px-2.5 py-1.5 text-sm ring-1 ${color === option ? 'ring-2 ring-slate-800' : 'ring-slate-200'}`}
            >
              <input type="radio" name={colorGroup} value={option} checked={color === option} onChange={() => setColor(option)} className="sr-only" />
              <span className={`size-3.5 rounded-full ${professionalColorStyles[option].dot}`} aria-hidden="true" />
              {professionalColorStyles[option].label}
            </label>
          ))}
        </div>
      </fieldset>
      <fieldset>
        <legend className="mb-1.5 text-sm font-medium text-slate-700">Servicios</legend>
        {services.length === 0 ? (
          <p className="text-sm text-slate-500">Aún no hay servicios. Añádelos en la sección Servicios.</p>
        ) : (
          <div className="grid gap-1.5 sm:grid-cols-2">
            {services.map((service) => (
              <label key={service.id} className="flex items-center gap-2 text-sm text-slate-700">
                <input
                  type="checkbox"
                  className="size-4 accent-emerald-600"
                  checked={serviceIds.includes(service.id)}
                  onChange={(event) => toggleService(service.id, event.target.checked)}
                />
                {service.name}
              </label>
            ))}
          </div>
        )}
      </fieldset>
    </AgendaFormDialog>
  );
}
