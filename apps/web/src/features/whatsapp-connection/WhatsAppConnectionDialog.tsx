import { useEffect, useId, useState, type FormEvent, type ReactNode } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { WhatsAppConnectionTest, WhatsAppProvider, WhatsAppSettings, WhatsAppSettingsRequest } from '@embudo/contracts/http/whatsapp';
import { WHATSAPP_SETTINGS_SAVED } from '@embudo/contracts/http/whatsapp';
import { errorMessageOr } from '../../shared/api-client/api-error.ts';
import { Button } from '../../shared/ui/Button.tsx';
import { CopyButton } from '../../shared/ui/CopyButton.tsx';
import { Modal } from '../../shared/ui/Modal.tsx';
import { Spinner } from '../../shared/ui/Spinner.tsx';
import { TextField } from '../../shared/ui/TextField.tsx';
import { useToast } from '../../shared/ui/use-toast.ts';
import { providerSettingsApi } from './provider-settings.api.ts';
import { OptOutKeywordsSection } from './OptOutKeywordsSection.tsx';
import { WhatsAppActivityPanel } from '../whatsapp-activity/WhatsAppActivityPanel.tsx';
import { ownActivity } from '../whatsapp-activity/whatsapp-activity.api.ts';

const queryKey = ['whatsapp-settings'];

const providerLabels: Record<WhatsAppProvider, string> = { gupshup: 'Gupshup', meta: 'Meta Cloud API' };

interface Form {
  provider: WhatsAppProvider;
  appName: string;
  sourceNumber: string;
  phoneNumberId: string;
  wabaId: string;
  accessToken: string;
  appSecret: string;
}

const formOf = (settings: WhatsAppSettings): Form => ({
  provider: settings.provider,
  appName: settings.appName ?? '',
  sourceNumber: settings.sourceNumber ?? '',
  phoneNumberId: settings.phoneNumberId ?? '',
  wabaId: settings.wabaId ?? '',
  accessToken: '',
  appSecret: '',
});

type Errors = Partial<Record<keyof Form, string>>;

/** What must be filled before saving or testing; Meta's secrets only when none is saved yet. */
function problemsOf(form: Form, saved: WhatsAppSettings | undefined): Errors {
  const errors: Errors = {};
  if (form.provider === 'gupshup') {
    if (!form.appName.trim()) errors.appName = 'El nombre de la app es requerido.';
    if (!form.sourceNumber.trim()) errors.sourceNumber = 'El número de origen es requerido.';
    return errors;
  }
  if (!form.phoneNumberId.trim()) errors.phoneNumberId = 'El phone number id es requerido.';
  if (!form.wabaId.trim()) errors.wabaId = 'El WABA id es requerido.';
  if (!form.accessToken.trim() && !saved?.hasAccessToken) errors.accessToken = 'El token de acceso permanente es requerido.';
  if (!form.appSecret.trim() && !saved?.hasAppSecret) errors.appSecret = 'El secreto de la app (app secret) es requerido.';
  return errors;
}

function requestOf(form: Form): WhatsAppSettingsRequest {
  if (form.provider === 'gupshup') return { provider: 'gupshup', appName: form.appName.trim(), sourceNumber: form.sourceNumber.trim() };
  return {
    provider: 'meta',
    phoneNumberId: form.phoneNumberId.trim(),
    wabaId: form.wabaId.trim(),
    // Blank keeps the saved secret: the server never sends it back.
    ...(form.accessToken.trim() ? { accessToken: form.accessToken.trim() } : {}),
    ...(form.appSecret.trim() ? { appSecret: form.appSecret.trim() } : {}),
  };
}

/** A value to paste elsewhere (Meta's or Gupshup's dashboard), with its copy button. */
function CopyableValue({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div>
      <p className="font-medium text-slate-700">{label}</p>
      <div className="mt-1 flex items-start gap-2">
        <p className="min-w-0 flex-1 break-all font-mono" data-testid={testId}>
          {value}
        </p>
        <CopyButton text={value} size="sm" />
      </div>
    </div>
  );
}

function Notes({ children }: { children: ReactNode }) {
  return <div className="space-y-3 rounded-xl border border-slate-200 bg-slate-50 p-3 text-xs text-slate-600">{children}</div>;
}

/**
 * Conexión WhatsApp (issue 18): the provider the company sends through. Gupshup: the app name and sender number,
 * and the webhook URL to give Gupshup. Meta Cloud API: the number's and WABA's ids, the permanent token and app
 * secret (write-only), the verify token and webhook URL to paste in Meta's dashboard, and Probar conexión.
 */
export function WhatsAppConnectionDialog({ onClose }: { onClose: () => void }) {
  const toast = useToast();
  const queryClient = useQueryClient();
  const providerGroup = useId();
  const settings = useQuery({ queryKey, queryFn: providerSettingsApi.load, retry: false });
  const [form, setForm] = useState<Form | null>(null);
  const [submitted, setSubmitted] = useState(false);
  const [test, setTest] = useState<WhatsAppConnectionTest | null>(null);

  useEffect(() => {
    if (settings.data) setForm(formOf(settings.data));
  }, [settings.data]);

  useEffect(() => {
    if (settings.isError) toast.error(errorMessageOr(settings.error, 'Error al cargar la configuración de Gupshup'));
  }, [settings.isError, settings.error, toast]);

  const save = useMutation({
    mutationFn: providerSettingsApi.save,
    onSuccess: (saved) => {
      queryClient.setQueryData(queryKey, saved);
      toast.success(saved.provider === 'gupshup' ? 'Configuración de Gupshup guardada.' : WHATSAPP_SETTINGS_SAVED);
      onClose();
    },
    onError: (error) => toast.error(errorMessageOr(error, 'No se pudo guardar la Conexión WhatsApp.')),
  });

  const probe = useMutation({
    mutationFn: providerSettingsApi.test,
    onSuccess: setTest,
    onError: (error) => {
      setTest(null);
      toast.error(errorMessageOr(error, 'No se pudo probar la conexión.'));
    },
  });

  const errors = form && submitted ? problemsOf(form, settings.data) : {};
  const change = (field: keyof Form) => (event: { target: { value: string } }) => {
    setForm((current) => current && { ...current, [field]: event.target.value });
    setTest(null);
  };
  const valid = () => {
    setSubmitted(true);
    return form !== null && Object.keys(problemsOf(form, settings.data)).length === 0;
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (form && valid()) save.mutate(requestOf(form));
  };
  const onTest = () => {
    if (form && valid()) probe.mutate(requestOf(form));
  };

  const data = settings.data;
  return (
    <Modal
      title="Conexión WhatsApp"
      description="Conecta WhatsApp por Gupshup o directamente con la API de WhatsApp Cloud de Meta."
      onClose={onClose}
      size="lg"
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancelar
          </Button>
          <Button variant="secondary" onClick={onTest} loading={probe.isPending} disabled={!form || save.isPending}>
            Probar conexión
          </Button>
          <Button type="submit" form="whatsapp-connection-form" disabled={save.isPending || settings.isPending || !form}>
            {save.isPending ? 'Guardando...' : 'Guardar'}
          </Button>
        </>
      }
    >
      {settings.isPending || !form || !data ? (
        settings.isError ? null : (
          <div className="flex justify-center py-8 text-emerald-600" aria-label="Cargando configuración">
            <Spinner className="size-6" />
          </div>
        )
      ) : (
        <form id="whatsapp-connection-form" className="space-y-4" onSubmit={onSubmit} noValidate>
          <fieldset>
            <legend className="mb-1.5 block text-sm font-medium text-slate-700">Proveedor</legend>
            <div role="radiogroup" aria-label="Proveedor" className="grid grid-cols-2 gap-2">
              {(['gupshup', 'meta'] as const).map((provider) => (
                <label
                  key={provider}
                  className={`flex cursor-pointer items-center gap-2 rounded-lg border px-3 py-2.5 text-sm ${
                    form.provider === provider ? 'border-emerald-500 bg-emerald-50 text-emerald-900' : 'border-slate-300 text-slate-700'
                  }`}
                >
                  <input
                    type="radio"
                    name={providerGroup}
                    value={provider}
                    checked={form.provider === provider}
                    onChange={() => {
                      setForm({ ...form, provider });
                      setTest(null);
                    }}
                  />
                  {providerLabels[provider]}
                  {data.provider === provider && <span className="ml-auto text-xs text-emerald-700">En uso</span>}
                </label>
              ))}
            </div>
          </fieldset>

          {form.provider === 'gupshup' ? (
            <>
              <TextField label="Nombre de la app" value={form.appName} onChange={change('appName')} error={errors.appName} placeholder="MiEmpresaApp" />
              <TextField
                label="Número de origen"
                value={form.sourceNumber}
                onChange={change('sourceNumber')}
                error={errors.sourceNumber}
                inputMode="numeric"
                placeholder="5215512345678"
                hint="Código de país y número, sin + ni espacios."
              />
              <Notes>
                <div>
                  <p className="font-medium text-slate-700">URL de webhook para Gupshup</p>
                  <p className="mt-1 break-all font-mono" data-testid="webhook-url">
                    {data.gupshupWebhookUrl}
                  </p>
                </div>
              </Notes>
            </>
          ) : (
            <>
              <div className="grid gap-4 sm:grid-cols-2">
                <TextField
                  label="Phone number id"
                  value={form.phoneNumberId}
                  onChange={change('phoneNumberId')}
                  error={errors.phoneNumberId}
                  inputMode="numeric"
                  placeholder="109876543210987"
                  hint="En Meta: WhatsApp > Configuración de la API."
                />
                <TextField
                  label="WABA id"
                  value={form.wabaId}
                  onChange={change('wabaId')}
                  error={errors.wabaId}
                  inputMode="numeric"
                  placeholder="204567890123456"
                  hint="El id de la cuenta de WhatsApp Business."
                />
              </div>
              <TextField
                label="Token de acceso permanente"
                type="password"
                autoComplete="off"
                value={form.accessToken}
                onChange={change('accessToken')}
                error={errors.accessToken}
                placeholder={data.hasAccessToken ? '•••••••• (guardado)' : 'EAAG…'}
                hint={data.hasAccessToken ? 'Déjalo vacío para conservar el token guardado.' : 'Token de un usuario del sistema de Meta Business.'}
              />
              <TextField
                label="Secreto de la app (app secret)"
                type="password"
                autoComplete="off"
                value={form.appSecret}
                onChange={change('appSecret')}
                error={errors.appSecret}
                placeholder={data.hasAppSecret ? '•••••••• (guardado)' : ''}
                hint={data.hasAppSecret ? 'Déjalo vacío para conservar el secreto guardado.' : 'Con él Embudo comprueba la firma de cada webhook de Meta.'}
              />
              <Notes>
                <p>
                  En la app de Meta, en WhatsApp &gt; Configuración, pega estos dos valores como webhook y suscríbete a «messages» y a
                  «message_template_status_update».
                </p>
                <CopyableValue label="URL del webhook (Meta)" value={data.metaWebhookUrl} testId="meta-webhook-url" />
                <CopyableValue label="Token de verificación" value={data.verifyToken} testId="meta-verify-token" />
              </Notes>
            </>
          )}

          {test && (
            <div role="status" aria-label="Resultado de la prueba" data-testid="connection-test" data-ok={test.ok} className="space-y-1.5 text-sm">
              <p className={`font-semibold ${test.ok ? 'text-emerald-700' : 'text-rose-700'}`}>
                {test.ok ? 'Conexión correcta.' : 'La conexión tiene problemas:'}
              </p>
              <ul className="space-y-1">
                {test.checks.map((check) => (
                  <li key={check.message} className={`flex gap-2 ${check.ok ? 'text-slate-700' : 'text-rose-700'}`}>
                    <span aria-hidden="true">{check.ok ? '✓' : '✗'}</span>
                    <span>{check.message}</span>
                  </li>
                ))}
              </ul>
            </div>
          )}

          {data.sandbox && (
            <p className="text-xs text-slate-500">
              Modo sandbox: prueba como cliente en{' '}
              <a className="text-emerald-700 underline" href="/sandbox" target="_blank" rel="noreferrer">
                /sandbox
              </a>
              {form.provider === 'meta' ? '; el sandbox hace de Meta con los datos que guardes aquí.' : '.'}
            </p>
          )}
        </form>
      )}
      {/* Issue 43: outside the connection form (forms do not nest), folded until opened. */}
      {data && (
        <div className="mt-4">
          <OptOutKeywordsSection />
        </div>
      )}
      {/* Issue 17: whether deliveries arrive, what was refused or failed, with Reintentar. */}
      <div className="mt-6 border-t border-slate-200 pt-5">
        <WhatsAppActivityPanel source={ownActivity} />
      </div>
    </Modal>
  );
}
