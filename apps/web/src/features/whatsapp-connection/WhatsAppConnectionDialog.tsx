import { useEffect, useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { errorMessageOr } from '../../shared/api-client/api-error.ts';
import { Button } from '../../shared/ui/Button.tsx';
import { Modal } from '../../shared/ui/Modal.tsx';
import { Spinner } from '../../shared/ui/Spinner.tsx';
import { TextField } from '../../shared/ui/TextField.tsx';
import { useToast } from '../../shared/ui/use-toast.ts';
import { providerSettingsApi } from './provider-settings.api.ts';
import { WhatsAppActivityPanel } from '../whatsapp-activity/WhatsAppActivityPanel.tsx';
import { ownActivity } from '../whatsapp-activity/whatsapp-activity.api.ts';

const queryKey = ['gupshup-settings'];

/** Conexión WhatsApp: the tenant's Gupshup app name and sender number, and the webhook URL to give Gupshup. */
export function WhatsAppConnectionDialog({ onClose }: { onClose: () => void }) {
  const toast = useToast();
  const queryClient = useQueryClient();
  const settings = useQuery({ queryKey, queryFn: providerSettingsApi.load, retry: false });
  const [appName, setAppName] = useState('');
  const [sourceNumber, setSourceNumber] = useState('');
  const [submitted, setSubmitted] = useState(false);

  useEffect(() => {
    if (settings.data) {
      setAppName(settings.data.appName ?? '');
      setSourceNumber(settings.data.sourceNumber ?? '');
    }
  }, [settings.data]);

  useEffect(() => {
    if (settings.isError) toast.error(errorMessageOr(settings.error, 'Error al cargar la configuración de Gupshup'));
  }, [settings.isError, settings.error, toast]);

  const save = useMutation({
    mutationFn: providerSettingsApi.save,
    onSuccess: (saved) => {
      queryClient.setQueryData(queryKey, saved);
      toast.success('Configuración de Gupshup guardada.');
      onClose();
    },
    onError: (error) => toast.error(errorMessageOr(error, 'No se pudo guardar la configuración de Gupshup.')),
  });

  const appNameError = submitted && !appName.trim() ? 'El nombre de la app es requerido.' : null;
  const sourceNumberError = submitted && !sourceNumber.trim() ? 'El número de origen es requerido.' : null;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (!appName.trim() || !sourceNumber.trim()) return;
    save.mutate({ appName: appName.trim(), sourceNumber: sourceNumber.trim() });
  };

  return (
    <Modal
      title="Conexión WhatsApp"
      description="Conecta tu app de Gupshup para enviar y recibir mensajes."
      onClose={onClose}
      size="lg"
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancelar
          </Button>
          <Button type="submit" form="whatsapp-connection-form" disabled={save.isPending || settings.isPending}>
            {save.isPending ? 'Guardando...' : 'Guardar'}
          </Button>
        </>
      }
    >
      {settings.isPending ? (
        <div className="flex justify-center py-8 text-emerald-600" aria-label="Cargando configuración">
          <Spinner className="size-6" />
        </div>
      ) : (
        <form id="whatsapp-connection-form" className="space-y-4" onSubmit={onSubmit} noValidate>
          <TextField
            label="Nombre de la app"
            value={appName}
            onChange={(event) => setAppName(event.target.value)}
            error={appNameError}
            placeholder="MiEmpresaApp"
          />
          <TextField
            label="Número de origen"
            value={sourceNumber}
            onChange={(event) => setSourceNumber(event.target.value)}
            error={sourceNumberError}
            inputMode="numeric"
            placeholder="5215512345678"
            hint="Código de país y número, sin + ni espacios."
          />
          {settings.data && (
            <div className="rounded-xl border border-slate-200 bg-slate-50 p-3 text-xs text-slate-600">
              <p className="font-medium text-slate-700">URL de webhook para Gupshup</p>
              <p className="mt-1 break-all font-mono" data-testid="webhook-url">
                {settings.data.webhookUrl}
              </p>
              {settings.data.sandbox && (
                <p className="mt-2">
                  Modo sandbox: prueba como cliente en{' '}
                  <a className="text-emerald-700 underline" href="/sandbox" target="_blank" rel="noreferrer">
                    /sandbox
                  </a>
                  .
                </p>
              )}
            </div>
          )}
        </form>
      )}
      {/* Issue 17: whether deliveries arrive, what was refused or failed, with Reintentar. */}
      <div className="mt-6 border-t border-slate-200 pt-5">
        <WhatsAppActivityPanel source={ownActivity} />
      </div>
    </Modal>
  );
}
