import type { TemplateDto, TemplateMediaResponse, TemplateRequestInput, TemplateSyncResponse } from '@embudo/contracts/http/templates';
import { api } from '../../shared/api-client/api-client.ts';

const templatePath = (templateId: string) => `/api/templates/${encodeURIComponent(templateId)}`;

/** The list answer is an array or an object holding `templates` (spec 02 §7). */
function templatesOf(answer: unknown): TemplateDto[] {
  const list = Array.isArray(answer) ? answer : (answer as { templates?: unknown } | undefined)?.templates;
  return Array.isArray(list) ? (list as TemplateDto[]) : [];
}

export const templatesKeys = {
  all: ['templates'] as const,
  list: ['templates', 'all'] as const,
  one: (templateId: string) => ['templates', 'one', templateId] as const,
};

export const templatesApi = {
  list: async () => templatesOf(await api.get<unknown>('/api/templates')),
  get: (templateId: string) => api.get<TemplateDto>(templatePath(templateId)),
  create: (template: TemplateRequestInput) => api.post<TemplateDto>('/api/templates', template),
  update: (templateId: string, template: TemplateRequestInput) => api.put<TemplateDto>(templatePath(templateId), template),
  remove: (templateId: string) => api.delete<void>(templatePath(templateId)),
  sync: () => api.post<TemplateSyncResponse>('/api/templates/sync'),
  uploadMedia: (file: File) => {
    const form = new FormData();
    form.append('media', file, file.name);
    return api.post<Partial<TemplateMediaResponse> | undefined>('/api/templates/media', form);
  },
};
