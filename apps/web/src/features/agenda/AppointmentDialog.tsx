import { useState } from 'react';
import { SelectField } from '../../shared/ui/SelectField.tsx';
import { TextField } from '../../shared/ui/TextField.tsx';
import { appointmentPayload, appointmentProblem, type AppointmentDraft } from './agenda-drafts.ts';
import { agendaApi, type ProfessionalDto, type ServiceDto } from './agenda.api.ts';
import { AgendaFormDialog } from './AgendaFormDialog.tsx';
import { ContactSearch } from './ContactSearch.tsx';
import { ProfessionalSelect } from './ProfessionalSelect.tsx';
import { useDialogSave } from './use-dialog-save.ts';
import { outsideHoursWarning } from './weekly-hours.ts';

interface AppointmentDialogProps {
  /** Set when editing an existing appointment. */
  appointmentId?: string;
  initial: AppointmentDraft;
  professionals: ProfessionalDto[];
  services: ServiceDto[];
  readOnly: boolean;
  onSaved: () => void;
  onDelete?: () => void;
  onClose: () => void;
}

/** New or existing appointment: services offered are the chosen professional's, and a service fills the cost (spec 02 §5). */
export function AppointmentDialog({ appointmentId, initial, professionals, services, readOnly, onSaved, onDelete, onClose }: AppointmentDialogProps) {
  const [draft, setDraft] = useState(initial);
  const change = (patch: Partial<AppointmentDraft>) => setDraft((current) => ({ ...current, ...patch }));

  const professional = professionals.find((entry) => entry.id === draft.professionalId);
  const offered = services.filter((service) => professional?.serviceIds.includes(service.id));
  // Saved all the same: businesses book exceptions, they only need to know.
  const outsideHours = professional ? outsideHoursWarning(professional, draft) : null;

  const form = useDialogSave({
    problem: () => appointmentProblem(draft),
    save: () => {
      const payload = appointmentPayload(draft);
      return appointmentId ? agendaApi.updateAppointment(appointmentId, payload) : agendaApi.createAppointment(payload);
    },
    success: 'Cita guardada',
    failure: 'Error al guardar la cita.',
    onSaved,
    onClose,
  });

  const chooseProfessional = (professionalId: string) => {
    const next = professionals.find((entry) => entry.id === professionalId);
    // A service the new professional does not offer cannot stay chosen.
    change({ professionalId, ...(next?.serviceIds.includes(draft.serviceId) ? {} : { serviceId: '' }) });
  };

  const chooseService = (serviceId: string) => {
    const service = services.find((entry) => entry.id === serviceId);
    change({ serviceId, ...(service ? { cost: String(service.cost) } : {}) });
  };

  return (
    <AgendaFormDialog
      title={readOnly ? 'Cita' : appointmentId ? 'Editar cita' : 'Nueva cita'}
      size="lg"
      layout="grid"
      form={form}
      onClose={onClose}
      onDelete={onDelete}
      readOnly={readOnly}
    >
      {!readOnly && (
        <div className="sm:col-span-2">
          <ContactSearch onPick={(contact) => change({ clientName: contact.name, clientWhatsapp: contact.phone })} />
        </div>
      )}
      <TextField label="Nombre del cliente" value={draft.clientName} onChange={(event) => change({ clientName: event.target.value })} />
      <TextField
        label="WhatsApp"
        inputMode="tel"
        placeholder="573001234567"
        value={draft.clientWhatsapp}
        onChange={(event) => change({ clientWhatsapp: event.target.value })}
      />
      <ProfessionalSelect professionals={professionals} value={draft.professionalId} onChange={chooseProfessional} />
      <SelectField
        label="Servicio"
        value={draft.serviceId}
        disabled={!professional}
        hint={professional && offered.length === 0 ? 'Este profesional aún no tiene servicios asignados.' : undefined}
        onChange={(event) => chooseService(event.target.value)}
      >
        <option value="">Selecciona un servicio</option>
        {offered.map((service) => (
          <option key={service.id} value={service.id}>
            {service.name}
          </option>
        ))}
      </SelectField>
      <TextField label="Fecha" type="date" value={draft.date} onChange={(event) => change({ date: event.target.value })} />
      <TextField label="Costo" type="number" min={0} step="0.01" value={draft.cost} onChange={(event) => change({ cost: event.target.value })} />
      <TextField label="Hora de inicio" type="time" value={draft.startTime} onChange={(event) => change({ startTime: event.target.value })} />
      <TextField label="Hora de fin" type="time" value={draft.endTime} onChange={(event) => change({ endTime: event.target.value })} />
      {outsideHours && (
        <p
          role="status"
          data-testid="outside-hours-warning"
          className="rounded-lg bg-amber-50 px-3 py-2 text-sm font-medium text-amber-800 ring-1 ring-amber-200 sm:col-span-2"
        >
          {outsideHours}
        </p>
      )}
    </AgendaFormDialog>
  );
}
