import { useId } from 'react';
import { fillPlaceholders } from '@embudo/contracts/http/templates';
import type { ApprovedTemplate } from './chat.api.ts';

export interface TemplateChoice {
  templateId: string;
  variables: Record<string, string>;
}

export function variableKeys(template: ApprovedTemplate | undefined): string[] {
  if (!template) return [];
  const fromSchema = Object.keys(template.variables_schema ?? {});
  const keys = fromSchema.length > 0 ? fromSchema : [...template.body_text.matchAll(/\{\{\s*(\d+)\s*\}\}/g)].map((match) => match[1]!);
  return [...new Set(keys)].sort((a, b) => Number(a) - Number(b));
}

/** The body with {{N}} replaced by the entered values, for previews and the optimistic bubble. */
export function fillTemplate(template: ApprovedTemplate, variables: Record<string, string>) {
  return fillPlaceholders(template.body_text, variables);
}

export function templateChoiceComplete(templates: ApprovedTemplate[], choice: TemplateChoice) {
  const template = templates.find((candidate) => candidate.id === choice.templateId);
  return Boolean(template) && variableKeys(template).every((key) => (choice.variables[key] ?? '').trim() !== '');
}

/** Select an approved template and fill its numbered variables (spec 01 §3 Template). */
export function TemplatePicker({
  templates,
  value,
  onChange,
}: {
  templates: ApprovedTemplate[];
  value: TemplateChoice;
  onChange: (next: TemplateChoice) => void;
}) {
  const id = useId();
  const template = templates.find((candidate) => candidate.id === value.templateId);
  const schema = template?.variables_schema ?? {};
  return (
    <div className="space-y-3">
      <div>
        <label htmlFor={id} className="mb-1.5 block text-sm font-medium text-slate-700">
          Plantilla
        </label>
        <select
          id={id}
          value={value.templateId}
          onChange={(event) => onChange({ templateId: event.target.value, variables: {} })}
          className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2.5 text-sm shadow-sm outline-none focus:border-emerald-500 focus:ring-4 focus:ring-emerald-100"
        >
          <option value="">Selecciona una plantilla</option>
          {templates.map((candidate) => (
            <option key={candidate.id} value={candidate.id}>
              {candidate.name}
            </option>
          ))}
        </select>
      </div>
      {template && (
        <>
          <p className="text-xs text-slate-500" data-testid="template-category">
            Categoría: <span className="font-semibold text-slate-700">{template.category}</span>
          </p>
          <p className="whitespace-pre-wrap rounded-lg bg-slate-50 p-3 text-sm text-slate-700 ring-1 ring-slate-200" data-testid="template-preview">
            {fillTemplate(template, value.variables)}
          </p>
          {variableKeys(template).map((key) => (
            <div key={key}>
              <label htmlFor={`${id}-${key}`} className="mb-1 block text-sm font-medium text-slate-700">
                {schema[key]?.label ?? `Variable ${key}`}
              </label>
              <input
                id={`${id}-${key}`}
                value={value.variables[key] ?? ''}
                onChange={(event) => onChange({ ...value, variables: { ...value.variables, [key]: event.target.value } })}
                className="block w-full rounded-lg border border-slate-300 px-3 py-2 text-sm shadow-sm outline-none focus:border-emerald-500 focus:ring-4 focus:ring-emerald-100"
              />
            </div>
          ))}
        </>
      )}
    </div>
  );
}
