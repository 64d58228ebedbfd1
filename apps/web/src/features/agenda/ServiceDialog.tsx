import { useState } from 'react';
import { DEFAULT_SERVICE_COST, DEFAULT_SERVICE_DURATION } from '@embudo/contracts/http/agenda';
import { TextField } from '../../shared/ui/TextField.tsx';
import { COST_PROBLEM } from './agenda-drafts.ts';
import { agendaApi, type ServiceDto } from './agenda.api.ts';
import { AgendaFormDialog } from './AgendaFormDialog.tsx';
import { useDialogSave } from './use-dialog-save.ts';

interface ServiceDialogProps {
  service?: ServiceDto;
  onSaved: () => void;
  onDelete?: () => void;
  onClose: () => void;
}

function serviceProblem(name: string, duration: string, cost: string): string | null {
  if (!name.trim()) return 'El nombre del servicio es requerido.';
  const minutes = Number(duration);
  if (!Number.isInteger(minutes) || minutes < 5 || minutes > 1440) return 'La duración debe ser un número entero de minutos entre 5 y 1440.';
  if (!(Number(cost) >= 0)) return COST_PROBLEM;
  return null;
}

/** Add or edit a service: name, duration (30 minutes by default) and cost (0 by default). */
export function ServiceDialog({ service, onSaved, onDelete, onClose }: ServiceDialogProps) {
  const [name, setName] = useState(service?.name ?? '');
  const [duration, setDuration] = useState(String(service?.duration ?? DEFAULT_SERVICE_DURATION));
  const [cost, setCost] = useState(String(service?.cost ?? DEFAULT_SERVICE_COST));

  const form = useDialogSave({
    problem: () => serviceProblem(name, duration, cost),
    save: () => {
      const body = { name: name.trim(), duration: Number(duration), cost: Number(cost) };
      return service ? agendaApi.updateService(service.id, body) : agendaApi.createService(body);
    },
    success: 'Servicio guardado',
    failure: 'Error al guardar.',
    onSaved,
    onClose,
  });

  return (
    <AgendaFormDialog title={service ? 'Editar servicio' : 'Nuevo servicio'} size="sm" form={form} onClose={onClose} onDelete={onDelete}>
      <TextField label="Nombre" maxLength={120} value={name} onChange={(event) => setName(event.target.value)} />
      <TextField label="Duración (minutos)" type="number" min={5} max={1440} step={5} value={duration} onChange={(event) => setDuration(event.target.value)} />
      <TextField label="Costo" type="number" min={0} step="0.01" value={cost} onChange={(event) => setCost(event.target.value)} />
    </AgendaFormDialog>
  );
}
