import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { errorMessageOr } from '../../shared/api-client/api-error.ts';
import { Button } from '../../shared/ui/Button.tsx';
import { Spinner } from '../../shared/ui/Spinner.tsx';
import { useToast } from '../../shared/ui/use-toast.ts';
import { chatApi } from '../chat/chat.api.ts';
import { boardApi } from './board.api.ts';

export const assignedTemplatesKey = (columnId: string) => ['assigned-templates', columnId] as const;

const statusLabels: Record<string, string> = { APPROVED: 'Aprobada', PENDING: 'Pendiente', PAUSED: 'Pendiente', REJECTED: 'Rechazada', FAILED: 'Rechazada' };

/** Column settings, tab Plantillas: which of the tenant's templates belong to this column. */
export function AssignedTemplatesTab({ columnId }: { columnId: string }) {
  const toast = useToast();
  const queryClient = useQueryClient();
  const templates = useQuery({ queryKey: ['templates', 'all'], queryFn: () => chatApi.templates() });
  const assigned = useQuery({ queryKey: assignedTemplatesKey(columnId), queryFn: () => boardApi.assignedTemplates(columnId) });
  const [selected, setSelected] = useState<Set<string> | null>(null);

  useEffect(() => {
    if (templates.isError) toast.error(errorMessageOr(templates.error, 'Error al cargar plantillas'));
  }, [templates.isError, templates.error, toast]);
  useEffect(() => {
    if (assigned.isError) toast.error(errorMessageOr(assigned.error, 'Error al cargar plantillas asignadas.'));
  }, [assigned.isError, assigned.error, toast]);

  const chosen = selected ?? new Set(assigned.data?.templateIds ?? []);
  const save = useMutation({
    mutationFn: () => boardApi.assignTemplates(columnId, [...chosen]),
    onSuccess: (answer) => {
      queryClient.setQueryData(assignedTemplatesKey(columnId), answer);
      setSelected(null);
      toast.success('Asignación de plantillas actualizada.');
    },
    onError: (error) => toast.error(errorMessageOr(error, 'Error al actualizar.')),
  });

  if (templates.isLoading || assigned.isLoading) {
    return (
      <div className="flex justify-center py-6 text-slate-400">
        <Spinner />
      </div>
    );
  }
  const list = templates.data ?? [];
  const toggle = (templateId: string) => {
    const next = new Set(chosen);
    if (next.has(templateId)) next.delete(templateId);
    else next.add(templateId);
    setSelected(next);
  };

  return (
    <div className="space-y-4">
      <p className="text-sm text-slate-600">Las plantillas asignadas aparecen primero al enviar una plantilla desde un chat de esta columna.</p>
      {list.length === 0 ? (
        <p className="rounded-lg bg-slate-50 px-3 py-4 text-center text-sm text-slate-500">Aún no hay plantillas. Créalas en Plantillas.</p>
      ) : (
        <ul className="max-h-72 space-y-1 overflow-y-auto" aria-label="Plantillas de la empresa">
          {list.map((template) => (
            <li key={template.id}>
              <label className="flex items-center gap-3 rounded-lg px-3 py-2 hover:bg-slate-50">
                <input type="checkbox" checked={chosen.has(template.id)} onChange={() => toggle(template.id)} className="size-4 accent-emerald-600" />
                <span className="min-w-0 flex-1 truncate text-sm text-slate-800">{template.name}</span>
                <span className="text-xs text-slate-500">{template.category}</span>
                <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs text-slate-600">{statusLabels[template.status] ?? template.status}</span>
              </label>
            </li>
          ))}
        </ul>
      )}
      <div className="flex justify-end">
        <Button onClick={() => save.mutate()} loading={save.isPending} disabled={assigned.isError}>
          Guardar asignación
        </Button>
      </div>
    </div>
  );
}
