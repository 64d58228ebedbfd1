import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState, type ChangeEvent, type FormEvent, type ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import {
  deriveVariablesSchema,
  MEDIA_UPLOAD_INVALID_RESPONSE,
  TEMPLATE_LIMITS,
  TEMPLATE_MEDIA_UNSUPPORTED,
  TEMPLATE_NAME_HINT,
  templateCategories,
  templateLanguages,
  templateMediaTypes,
  type TemplateButtonType,
  type TemplateHeaderType,
} from '@embudo/contracts/http/templates';
import { ApiError, errorMessageOr } from '../../shared/api-client/api-error.ts';
import { Button } from '../../shared/ui/Button.tsx';
import { Spinner } from '../../shared/ui/Spinner.tsx';
import { TextField } from '../../shared/ui/TextField.tsx';
import { useToast } from '../../shared/ui/use-toast.ts';
import {
  addableButtonTypes,
  addButton,
  draftErrors,
  draftFromTemplate,
  emptyDraft,
  nameAsTyped,
  toRequest,
  withHeaderType,
  type DraftButton,
  type MediaHeaderType,
  type TemplateDraft,
} from './template-draft.ts';
import { TemplatePhonePreview } from './TemplatePhonePreview.tsx';
import { RejectionNotice } from './RejectionNotice.tsx';
import { templatesApi, templatesKeys } from './templates.api.ts';

export const TEMPLATE_NOT_FOUND_TEXT = 'Template not found.';

const languageLabels: Record<(typeof templateLanguages)[number], string> = { es: 'Español (es)', en_US: 'English (en_US)', pt_BR: 'Português (pt_BR)' };
const headerLabels: Record<TemplateHeaderType | 'NONE', string> = { NONE: 'Ninguno', TEXT: 'Texto', IMAGE: 'Imagen', VIDEO: 'Video', DOCUMENT: 'Documento' };
const buttonLabels: Record<TemplateButtonType, { add: string; kind: string }> = {
  QUICK_REPLY: { add: '+ Respuesta rápida', kind: 'Respuesta rápida' },
  URL: { add: '+ Enlace (URL)', kind: 'Enlace (URL)' },
  PHONE_NUMBER: { add: '+ Llamar (teléfono)', kind: 'Llamar (teléfono)' },
};
const mediaAccept: Record<MediaHeaderType, string> = {
  IMAGE: '.png,.jpg,.jpeg,image/png,image/jpeg',
  VIDEO: '.mp4,video/mp4',
  DOCUMENT: '.pdf,application/pdf',
};

const inputClass =
  'block w-full rounded-lg border bg-white px-3 py-2.5 text-sm text-slate-900 shadow-sm outline-none transition placeholder:text-slate-400 focus:ring-4';
const inputState = (error?: string) =>
  error ? 'border-rose-400 focus:border-rose-500 focus:ring-rose-100' : 'border-slate-300 focus:border-emerald-500 focus:ring-emerald-100';

function Counter({ value, max }: { value: string; max: number }) {
  return (
    <span className={`text-xs tabular-nums ${value.length > max ? 'text-rose-600' : 'text-slate-400'}`}>
      {value.length}/{max}
    </span>
  );
}

function FieldError({ message }: { message?: string }) {
  return message ? <p className="mt-1.5 text-sm text-rose-600">{message}</p> : null;
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <fieldset className="space-y-4 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
      <legend className="sr-only">{title}</legend>
      <h2 className="text-sm font-semibold tracking-wide text-slate-500 uppercase" aria-hidden="true">
        {title}
      </h2>
      {children}
    </fieldset>
  );
}

/** The next free variable number: one more than the highest `{{N}}` in the body. */
function nextVariable(body: string) {
  const numbers = Object.keys(deriveVariablesSchema(body)).map(Number);
  return numbers.length ? Math.max(...numbers) + 1 : 1;
}

function ButtonRow({
  button,
  index,
  error,
  onChange,
  onRemove,
}: {
  button: DraftButton;
  index: number;
  error: (field: string) => string | undefined;
  onChange: (next: DraftButton) => void;
  onRemove: () => void;
}) {
  const label = `Botón ${index + 1}`;
  return (
    <li className="rounded-xl bg-slate-50 p-3 ring-1 ring-slate-200" data-testid="template-button-row" data-button-type={button.type}>
      <div className="mb-2 flex items-center justify-between">
        <p className="text-xs font-semibold text-slate-600">
          {label}: {buttonLabels[button.type].kind}
        </p>
        <Button variant="ghost" size="sm" onClick={onRemove} aria-label={`Quitar ${label.toLowerCase()}`}>
          Quitar
        </Button>
      </div>
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField
          label={`Texto del ${label.toLowerCase()}`}
          value={button.text}
          maxLength={TEMPLATE_LIMITS.buttonText}
          onChange={(event) => onChange({ ...button, text: event.target.value })}
          adornment={<Counter value={button.text} max={TEMPLATE_LIMITS.buttonText} />}
          error={error('text')}
        />
        {button.type === 'URL' && (
          <TextField
            label={`URL del ${label.toLowerCase()}`}
            type="url"
            value={button.url}
            onChange={(event) => onChange({ ...button, url: event.target.value })}
            error={error('url')}
          />
        )}
        {button.type === 'PHONE_NUMBER' && (
          <TextField
            label={`Teléfono del ${label.toLowerCase()}`}
            inputMode="tel"
            placeholder="+5215512345678"
            value={button.phone_number}
            onChange={(event) => onChange({ ...button, phone_number: event.target.value })}
            error={error('phone_number')}
          />
        )}
      </div>
    </li>
  );
}

/** The editor itself, for a new template or a loaded one (spec 02 §2 Template editor). */
export function TemplateEditorForm({ initial, templateId }: { initial: TemplateDraft; templateId?: string }) {
  const { tenantSlug = '' } = useParams();
  const navigate = useNavigate();
  const toast = useToast();
  const queryClient = useQueryClient();
  const id = useId();
  const [draft, setDraft] = useState(initial);
  const [submitted, setSubmitted] = useState(false);
  const errors = submitted ? draftErrors(draft) : {};
  const update = (changes: Partial<TemplateDraft>) => setDraft((current) => ({ ...current, ...changes }));

  const upload = useMutation({
    mutationFn: (file: File) => templatesApi.uploadMedia(file),
    onSuccess: (answer) => {
      if (!answer?.handleId) {
        toast.error(MEDIA_UPLOAD_INVALID_RESPONSE);
        return;
      }
      const handleId = answer.handleId;
      setDraft((current) =>
        current.header && current.header.type !== 'TEXT'
          ? { ...current, header: { type: current.header.type, example_handle: handleId, ...(answer.url ? { media_url: answer.url } : {}) } }
          : current,
      );
      toast.success('Media sample uploaded successfully.');
    },
    onError: (error) => toast.error(errorMessageOr(error, 'Failed to upload media.')),
  });

  const save = useMutation({
    mutationFn: () => (templateId ? templatesApi.update(templateId, toRequest(draft)) : templatesApi.create(toRequest(draft))),
    onSuccess: async () => {
      toast.success(templateId ? 'Template updated and re-submitted.' : 'Template created and submitted.');
      await queryClient.invalidateQueries({ queryKey: templatesKeys.all });
      void navigate(`/t/${tenantSlug}/templates`);
    },
    onError: (error) => toast.error(errorMessageOr(error, 'Failed to save template.')),
  });

  const onFile = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    const header = draft.header;
    if (!file || !header || header.type === 'TEXT') return;
    if (!templateMediaTypes[header.type].includes(file.type)) {
      toast.error(TEMPLATE_MEDIA_UNSUPPORTED);
      return;
    }
    upload.mutate(file);
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (Object.keys(draftErrors(draft)).length > 0) return;
    save.mutate();
  };

  const header = draft.header;
  const addable = addableButtonTypes(draft.buttons);
  const buttonsError = errors.buttons;

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_320px]">
      <div className="space-y-5">
        <Section title="Datos">
          <TextField
            label="Nombre de la plantilla"
            value={draft.name}
            maxLength={TEMPLATE_LIMITS.name}
            placeholder="confirmacion_pedido"
            onChange={(event) => update({ name: nameAsTyped(event.target.value) })}
            hint={TEMPLATE_NAME_HINT}
            error={errors.name}
          />
          <div className="grid gap-4 sm:grid-cols-2">
            <div>
              <label htmlFor={`${id}-category`} className="mb-1.5 block text-sm font-medium text-slate-700">
                Categoría
              </label>
              <select
                id={`${id}-category`}
                value={draft.category}
                onChange={(event) => update({ category: event.target.value as TemplateDraft['category'] })}
                className={`${inputClass} ${inputState()}`}
              >
                {templateCategories.map((category) => (
                  <option key={category} value={category}>
                    {category}
                  </option>
                ))}
              </select>
            </div>
            <div>
              <label htmlFor={`${id}-language`} className="mb-1.5 block text-sm font-medium text-slate-700">
                Idioma
              </label>
              <select
                id={`${id}-language`}
                value={draft.language_code}
                onChange={(event) => update({ language_code: event.target.value as TemplateDraft['language_code'] })}
                className={`${inputClass} ${inputState()}`}
              >
                {templateLanguages.map((language) => (
                  <option key={language} value={language}>
                    {languageLabels[language]}
                  </option>
                ))}
              </select>
            </div>
          </div>
        </Section>

        <Section title="Encabezado (opcional)">
          <div>
            <label htmlFor={`${id}-header`} className="mb-1.5 block text-sm font-medium text-slate-700">
              Tipo de encabezado
            </label>
            <select
              id={`${id}-header`}
              value={header?.type ?? 'NONE'}
              onChange={(event) => setDraft((current) => withHeaderType(current, event.target.value as TemplateHeaderType | 'NONE'))}
              className={`${inputClass} ${inputState()}`}
            >
              {(['NONE', 'TEXT', 'IMAGE', 'VIDEO', 'DOCUMENT'] as const).map((type) => (
                <option key={type} value={type}>
                  {headerLabels[type]}
                </option>
              ))}
            </select>
          </div>
          {header?.type === 'TEXT' && (
            <TextField
              label="Texto del encabezado"
              value={header.text}
              maxLength={TEMPLATE_LIMITS.header}
              onChange={(event) => update({ header: { type: 'TEXT', text: event.target.value } })}
              adornment={<Counter value={header.text} max={TEMPLATE_LIMITS.header} />}
              error={errors['header.text'] ?? errors.header}
            />
          )}
          {header && header.type !== 'TEXT' && (
            <div>
              <label htmlFor={`${id}-media`} className="mb-1.5 block text-sm font-medium text-slate-700">
                Archivo de ejemplo ({headerLabels[header.type].toLowerCase()})
              </label>
              <input
                id={`${id}-media`}
                type="file"
                accept={mediaAccept[header.type]}
                disabled={upload.isPending}
                onChange={onFile}
                className="block w-full text-sm text-slate-600 file:mr-3 file:rounded-lg file:border-0 file:bg-emerald-50 file:px-3 file:py-2 file:text-sm file:font-semibold file:text-emerald-700 hover:file:bg-emerald-100"
              />
              <p className="mt-1.5 text-xs text-slate-500" data-testid="media-status">
                {upload.isPending
                  ? 'Subiendo archivo…'
                  : header.example_handle
                    ? 'Archivo de ejemplo cargado.'
                    : 'PNG o JPEG para imagen, MP4 para video, PDF para documento.'}
              </p>
              <FieldError message={errors['header.example_handle'] ?? errors.header} />
            </div>
          )}
        </Section>

        <Section title="Cuerpo">
          <div>
            <div className="mb-1.5 flex items-center justify-between">
              <label htmlFor={`${id}-body`} className="text-sm font-medium text-slate-700">
                Cuerpo del mensaje
              </label>
              <Counter value={draft.body_text} max={TEMPLATE_LIMITS.body} />
            </div>
            <textarea
              id={`${id}-body`}
              rows={6}
              value={draft.body_text}
              maxLength={TEMPLATE_LIMITS.body}
              onChange={(event) => update({ body_text: event.target.value })}
              placeholder="Hola {{1}}, tu pedido {{2}} está listo."
              className={`${inputClass} ${inputState(errors.body_text)}`}
            />
            <div className="mt-1.5 flex items-center justify-between gap-3">
              <p className="text-xs text-slate-500">
                Usa {'{{1}}'}, {'{{2}}'}… para las variables.
              </p>
              <Button variant="ghost" size="sm" onClick={() => update({ body_text: `${draft.body_text}{{${nextVariable(draft.body_text)}}}` })}>
                + Agregar variable
              </Button>
            </div>
            <FieldError message={errors.body_text} />
          </div>
          <TextField
            label="Pie de página (opcional)"
            value={draft.footer}
            maxLength={TEMPLATE_LIMITS.footer}
            onChange={(event) => update({ footer: event.target.value })}
            adornment={<Counter value={draft.footer} max={TEMPLATE_LIMITS.footer} />}
            error={errors.footer}
          />
        </Section>

        <Section title="Botones (opcional, máximo 3)">
          {draft.buttons.length > 0 && (
            <ul className="space-y-3">
              {draft.buttons.map((button, index) => (
                <ButtonRow
                  key={index}
                  button={button}
                  index={index}
                  error={(field) => errors[`buttons.${index}.${field}`]}
                  onChange={(next) => update({ buttons: draft.buttons.map((current, at) => (at === index ? next : current)) })}
                  onRemove={() => update({ buttons: draft.buttons.filter((_button, at) => at !== index) })}
                />
              ))}
            </ul>
          )}
          {addable.length > 0 && (
            <div className="flex flex-wrap gap-2" data-testid="add-button-controls">
              {addable.map((type) => (
                <Button key={type} variant="secondary" size="sm" onClick={() => update({ buttons: addButton(draft.buttons, type, window.location.host) })}>
                  {buttonLabels[type].add}
                </Button>
              ))}
            </div>
          )}
          <FieldError message={buttonsError} />
        </Section>

        <div className="flex flex-wrap items-center justify-end gap-3">
          <Link to={`/t/${tenantSlug}/templates`} className="text-sm font-medium text-slate-600 hover:text-slate-900">
            Cancelar
          </Link>
          <Button type="submit" loading={save.isPending} disabled={upload.isPending || save.isPending}>
            Guardar y Enviar a Revisión
          </Button>
        </div>
      </div>

      <aside className="lg:sticky lg:top-24 lg:self-start">
        <h2 className="mb-2 text-sm font-semibold tracking-wide text-slate-500 uppercase">Vista previa</h2>
        <TemplatePhonePreview template={{ ...draft, footer: draft.footer || null }} />
      </aside>
    </form>
  );
}

/** templates/new and templates/{templateId}. */
export function TemplateEditorPage() {
  const { tenantSlug = '', templateId } = useParams();
  const toast = useToast();
  const existing = useQuery({
    queryKey: templatesKeys.one(templateId ?? ''),
    queryFn: () => templatesApi.get(templateId!),
    enabled: Boolean(templateId),
  });
  // 404, or 400 for an id that cannot name a template (/templates/abc): either way there is no such template.
  const notFound = existing.error instanceof ApiError && (existing.error.status === 404 || existing.error.status === 400);
  const loadError = existing.error;
  useEffect(() => {
    if (loadError) toast.error(notFound ? TEMPLATE_NOT_FOUND_TEXT : errorMessageOr(loadError, 'Failed to load templates.'));
  }, [loadError, notFound, toast]);

  return (
    <section className="mx-auto max-w-6xl px-4 py-8 sm:px-6 lg:px-8">
      <Link to={`/t/${tenantSlug}/templates`} className="text-sm font-medium text-emerald-700 hover:text-emerald-800">
        ← Volver a Plantillas
      </Link>
      <h1 className="mt-2 mb-6 text-2xl font-bold tracking-tight text-slate-900">{templateId ? 'Editar Plantilla' : 'Nueva Plantilla'}</h1>
      {!templateId && <TemplateEditorForm initial={emptyDraft()} />}
      {templateId && existing.isPending && (
        <div className="flex justify-center py-16 text-emerald-600" role="status" aria-label="Cargando plantilla">
          <Spinner className="size-8" />
        </div>
      )}
      {templateId && existing.isError && (
        <div className="rounded-2xl bg-rose-50 p-6 text-center text-sm text-rose-700 ring-1 ring-rose-200">
          {notFound ? TEMPLATE_NOT_FOUND_TEXT : 'Failed to load templates.'}
        </div>
      )}
      {existing.data && (existing.data.blocked_by_operator || existing.data.rejection_reason) && (
        <div className="-mt-3 mb-6">
          <RejectionNotice template={existing.data} editing />
        </div>
      )}
      {existing.data && <TemplateEditorForm key={existing.data.id} initial={draftFromTemplate(existing.data)} templateId={existing.data.id} />}
    </section>
  );
}
