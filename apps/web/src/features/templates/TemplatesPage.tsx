import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useNavigate, useParams } from 'react-router';
import type { TemplateDto } from '@embudo/contracts/http/templates';
import { errorMessageOr } from '../../shared/api-client/api-error.ts';
import { Button } from '../../shared/ui/Button.tsx';
import { Spinner } from '../../shared/ui/Spinner.tsx';
import { useDialogs } from '../../shared/ui/use-dialogs.ts';
import { useToast } from '../../shared/ui/use-toast.ts';
import { usePermissions } from '../auth/use-permissions.ts';
import { TemplatePhonePreview } from './TemplatePhonePreview.tsx';
import { TemplateStatusChip } from './TemplateStatusChip.tsx';
import { RejectionNotice } from './RejectionNotice.tsx';
import { templatesApi, templatesKeys } from './templates.api.ts';

export const DELETE_QUESTION = 'Are you sure you want to delete this template? This action is irreversible.';

function TemplateCard({
  template,
  slug,
  canManage,
  onDelete,
  deleting,
}: {
  template: TemplateDto;
  slug: string;
  canManage: boolean;
  onDelete: () => void;
  deleting: boolean;
}) {
  const navigate = useNavigate();
  return (
    <article aria-label={template.name} data-testid="template-card" className="flex flex-col rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
      <TemplatePhonePreview template={template} />
      <div className="mt-4 flex items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 className="truncate font-mono text-sm font-semibold text-slate-900">{template.name}</h2>
          <p className="mt-0.5 text-xs text-slate-500">
            <span data-testid="template-category">{template.category}</span> · {template.language_code}
          </p>
        </div>
        <TemplateStatusChip status={template.status} />
      </div>
      <RejectionNotice template={template} />
      {canManage && (
        <div className="mt-auto flex justify-end gap-2 pt-4">
          <Button variant="secondary" size="sm" onClick={() => void navigate(`/t/${slug}/templates/${template.id}`)} aria-label={`Editar ${template.name}`}>
            Editar
          </Button>
          <Button variant="danger" size="sm" loading={deleting} onClick={onDelete} aria-label={`Eliminar ${template.name}`}>
            Eliminar
          </Button>
        </div>
      )}
    </article>
  );
}

/** /t/{slug}/templates: the tenant's templates with their review status (spec 02 §2 Templates list). */
export function TemplatesPage() {
  const { tenantSlug = '' } = useParams();
  const { canManage } = usePermissions();
  const toast = useToast();
  const dialogs = useDialogs();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const templates = useQuery({ queryKey: templatesKeys.list, queryFn: templatesApi.list });

  const loadError = templates.error;
  useEffect(() => {
    if (loadError) toast.error(errorMessageOr(loadError, 'Failed to load templates.'));
  }, [loadError, toast]);

  const sync = useMutation({
    mutationFn: templatesApi.sync,
    onMutate: () => toast.info('Syncing template statuses with Meta...'),
    onSuccess: (result) => {
      queryClient.setQueryData(templatesKeys.list, result.templates);
      toast.success('Sync complete!');
    },
    onError: (error) => toast.error(errorMessageOr(error, 'Failed to sync templates.')),
    // Approved lists elsewhere (chat, start conversation) follow the new statuses.
    onSettled: () => void queryClient.invalidateQueries({ queryKey: templatesKeys.all }),
  });

  const remove = useMutation({
    mutationFn: (templateId: string) => templatesApi.remove(templateId),
    onSuccess: (_answer, templateId) => {
      queryClient.setQueryData<TemplateDto[]>(templatesKeys.list, (list) => list?.filter((template) => template.id !== templateId));
      toast.success('Template deleted successfully.');
    },
    onError: (error) => toast.error(errorMessageOr(error, 'Failed to delete template.')),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: templatesKeys.all }),
  });

  const askToDelete = async (template: TemplateDto) => {
    const confirmed = await dialogs.confirm({ title: 'Eliminar plantilla', message: DELETE_QUESTION, confirmText: 'Eliminar', destructive: true });
    if (confirmed) remove.mutate(template.id);
  };

  return (
    <section className="mx-auto max-w-7xl px-4 py-8 sm:px-6 lg:px-8">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-2xl font-bold tracking-tight text-slate-900">Plantillas de Mensajes</h1>
        {canManage && (
          <div className="flex flex-wrap gap-2">
            <Button variant="secondary" loading={sync.isPending} onClick={() => sync.mutate()}>
              Sincronizar con Meta
            </Button>
            <Button onClick={() => void navigate(`/t/${tenantSlug}/templates/new`)}>Crear Nueva Plantilla</Button>
          </div>
        )}
      </div>

      {templates.isPending && (
        <div className="mt-10 flex justify-center text-emerald-600" role="status" aria-label="Cargando plantillas">
          <Spinner className="size-8" />
        </div>
      )}
      {templates.isError && (
        <div className="mt-6 rounded-2xl bg-rose-50 p-6 text-center ring-1 ring-rose-200">
          <p className="text-sm text-rose-700">Failed to load templates.</p>
          <Button variant="secondary" size="sm" className="mt-3" onClick={() => void templates.refetch()}>
            Reintentar
          </Button>
        </div>
      )}
      {templates.data && templates.data.length === 0 && (
        <div className="mt-6 grid min-h-64 place-items-center rounded-2xl border border-dashed border-slate-300 bg-white/60 p-10 text-center">
          <p className="text-sm text-slate-500">Aún no tienes plantillas.</p>
        </div>
      )}
      {templates.data && templates.data.length > 0 && (
        <div className="mt-6 grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
          {templates.data.map((template) => (
            <TemplateCard
              key={template.id}
              template={template}
              slug={tenantSlug}
              canManage={canManage}
              deleting={remove.isPending && remove.variables === template.id}
              onDelete={() => void askToDelete(template)}
            />
          ))}
        </div>
      )}
    </section>
  );
}
