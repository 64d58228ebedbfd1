import { useMutation } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { professionalColors, type ProfessionalColor } from '@embudo/contracts/http/agenda';
import { errorMessageOr } from '../../shared/api-client/api-error.ts';
import { FormAlert } from '../../shared/ui/FormAlert.tsx';
import { Modal } from '../../shared/ui/Modal.tsx';
import { TextField } from '../../shared/ui/TextField.tsx';
import { useToast } from '../../shared/ui/use-toast.ts';
import { agendaApi, type ProfessionalDto, type ServiceDto } from './agenda.api.ts';
import { AgendaDialogFooter } from './AgendaDialogFooter.tsx';
import { professionalColorStyles } from './professional-colors.ts';

interface ProfessionalDialogProps {
  professional?: ProfessionalDto;
  services: ServiceDto[];
  onSaved: () => void;
  onDelete?: () => void;
  onClose: () => void;
}

/** Add or edit a professional: name, one of the five colours and the services they offer. */
export function ProfessionalDialog({ professional, services, onSaved, onDelete, onClose }: ProfessionalDialogProps) {
  const toast = useToast();
  const formId = useId();
  const [name, setName] = useState(professional?.name ?? '');
  const [color, setColor] = useState<ProfessionalColor>(professional?.color ?? 'purple');
  const [serviceIds, setServiceIds] = useState<string[]>(professional?.serviceIds ?? []);
  const [problem, setProblem] = useState<string | null>(null);

  const save = useMutation({
    mutationFn: () => {
      const body = { name: name.trim(), color, serviceIds };
      return professional ? agendaApi.updateProfessional(professional.id, body) : agendaApi.createProfessional(body);
    },
    onSuccess: () => {
      toast.success('Profesional guardado');
      onSaved();
      onClose();
    },
    onError: (error) => toast.error(errorMessageOr(error, 'Error al guardar.')),
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const found = name.trim() ? null : 'El nombre del profesional es requerido.';
    setProblem(found);
    if (!found) save.mutate();
  };

  const toggleService = (serviceId: string, on: boolean) =>
    setServiceIds((current) => (on ? [...current, serviceId] : current.filter((entry) => entry !== serviceId)));

  return (
    <Modal
      title={professional ? 'Editar profesional' : 'Nuevo profesional'}
      onClose={onClose}
      footer={<AgendaDialogFooter formId={formId} saving={save.isPending} onCancel={onClose} onDelete={onDelete} />}
    >
      <form id={formId} noValidate onSubmit={onSubmit} className="space-y-4">
        <FormAlert message={problem} />
        <TextField label="Nombre" maxLength={120} value={name} onChange={(event) => setName(event.target.value)} />
        <fieldset>
          <legend className="mb-1.5 text-sm font-medium text-slate-700">Color</legend>
          <div className="flex flex-wrap gap-2">
            {professionalColors.map((option) => (
              <label key={option} className={`flex cursor-pointer items-center gap-2 rounded-lg px-2.5 py-1.5 text-sm ring-1 ${color === option ? 'ring-2 ring-slate-800' : 'ring-slate-200'}`}>
                <input type="radio" name={`${formId}-color`} value={option} checked={color === option} onChange={() => setColor(option)} className="sr-only" />
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
                  <input type="checkbox" className="size-4 accent-emerald-600" checked={serviceIds.includes(service.id)} onChange={(event) => toggleService(service.id, event.target.checked)} />
                  {service.name}
                </label>
              ))}
            </div>
          )}
        </fieldset>
      </form>
    </Modal>
  );
}
