import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { WhatsAppSettings } from '@embudo/contracts/http/whatsapp';
import { installFakeApi, json } from '../../test/fake-api.ts';
import { renderApp } from '../../test/render-app.tsx';
import { aTenant, aUser, storeSession } from '../../test/session-fixture.ts';

const settings: WhatsAppSettings = {
  provider: 'gupshup',
  webhookUrl: 'http://localhost:3000/webhooks/gupshup/t/secret',
  gupshupWebhookUrl: 'http://localhost:3000/webhooks/gupshup/t/secret',
  metaWebhookUrl: 'http://localhost:3000/webhooks/meta/t/secret',
  verifyToken: 'verificar-abc123',
  phoneNumberId: null,
  wabaId: null,
  hasAccessToken: false,
  hasAppSecret: false,
  appName: 'sandbox-acme',
  sourceNumber: '15550001000',
  sandbox: true,
};
const SETTINGS = '/t/acme/api/whatsapp/settings';

async function openConnection(extra: Parameters<typeof installFakeApi>[0] = {}) {
  const user = aUser({ name: 'Ana María' });
  const tenant = aTenant();
  storeSession(user, tenant);
  const api = installFakeApi({ 'GET /api/auth/me': () => json(200, { user, tenant }), ...extra });
  renderApp('/t/acme');
  await screen.findByRole('heading', { name: 'Sales Funnel' });
  fireEvent.click(screen.getByTestId('user-menu-button'));
  fireEvent.click(screen.getByRole('menuitem', { name: 'Conexión WhatsApp' }));
  return api;
}

const input = (label: string) => screen.getByLabelText(label) as HTMLInputElement;

describe('Conexión WhatsApp dialog', () => {
  it('loads the settings with the webhook URL and saves both Gupshup fields', async () => {
    const api = await openConnection({
      [`GET ${SETTINGS}`]: () => json(200, settings),
      [`PUT ${SETTINGS}`]: () => json(200, { ...settings, appName: 'MiApp', sourceNumber: '5215500000000' }),
    });
    await waitFor(() => expect(input('Nombre de la app').value).toBe('sandbox-acme'));
    expect((screen.getByRole('radio', { name: /Gupshup/ }) as HTMLInputElement).checked).toBe(true);
    expect(screen.getByTestId('webhook-url').textContent).toBe(settings.gupshupWebhookUrl);
    fireEvent.change(input('Nombre de la app'), { target: { value: 'MiApp' } });
    fireEvent.change(input('Número de origen'), { target: { value: '5215500000000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('Configuración de Gupshup guardada.')).toBeTruthy();
    expect(api.callsTo('PUT', SETTINGS).map((call) => call.body)).toEqual([{ provider: 'gupshup', appName: 'MiApp', sourceNumber: '5215500000000' }]);
  });

  it('requires both Gupshup fields before saving', async () => {
    const api = await openConnection({ [`GET ${SETTINGS}`]: () => json(200, { ...settings, appName: null, sourceNumber: null }) });
    await screen.findByLabelText('Nombre de la app');
    fireEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('El nombre de la app es requerido.')).toBeTruthy();
    expect(screen.getByText('El número de origen es requerido.')).toBeTruthy();
    expect(api.callsTo('PUT', SETTINGS)).toHaveLength(0);
  });

  it('shows the load error message', async () => {
    await openConnection({ [`GET ${SETTINGS}`]: () => json(500, {}) });
    expect(await screen.findByText('Error al cargar la configuración de Gupshup')).toBeTruthy();
  });

  it('switches to Meta Cloud API: the webhook URL and verify token to copy, every field required, then saved', async () => {
    const api = await openConnection({
      [`GET ${SETTINGS}`]: () => json(200, settings),
      [`PUT ${SETTINGS}`]: (call) => json(200, { ...settings, provider: 'meta', ...(call.body as object), hasAccessToken: true, hasAppSecret: true }),
    });
    fireEvent.click(await screen.findByRole('radio', { name: /Meta Cloud API/ }));
    expect(screen.getByTestId('meta-webhook-url').textContent).toBe(settings.metaWebhookUrl);
    expect(screen.getByTestId('meta-verify-token').textContent).toBe('verificar-abc123');
    expect(screen.getAllByRole('button', { name: 'Copiar' })).toHaveLength(2);

    fireEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('El phone number id es requerido.')).toBeTruthy();
    expect(screen.getByText('El WABA id es requerido.')).toBeTruthy();
    expect(screen.getByText('El token de acceso permanente es requerido.')).toBeTruthy();
    expect(screen.getByText('El secreto de la app (app secret) es requerido.')).toBeTruthy();
    expect(api.callsTo('PUT', SETTINGS)).toHaveLength(0);

    fireEvent.change(input('Phone number id'), { target: { value: '109876543210987' } });
    fireEvent.change(input('WABA id'), { target: { value: '204567890123456' } });
    fireEvent.change(input('Token de acceso permanente'), { target: { value: 'EAAG-token' } });
    fireEvent.change(input('Secreto de la app (app secret)'), { target: { value: 'secreto' } });
    fireEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('Conexión WhatsApp guardada.')).toBeTruthy();
    expect(api.callsTo('PUT', SETTINGS).map((call) => call.body)).toEqual([
      { provider: 'meta', phoneNumberId: '109876543210987', wabaId: '204567890123456', accessToken: 'EAAG-token', appSecret: 'secreto' },
    ]);
  });

  it("keeps Meta's saved secrets when left blank, and Probar conexión says what is wrong", async () => {
    const saved = {
      ...settings,
      provider: 'meta' as const,
      phoneNumberId: '109876543210987',
      wabaId: '204567890123456',
      hasAccessToken: true,
      hasAppSecret: true,
    };
    const api = await openConnection({
      [`GET ${SETTINGS}`]: () => json(200, saved),
      [`POST ${SETTINGS}/test`]: () =>
        json(200, {
          provider: 'meta',
          ok: false,
          checks: [{ ok: false, message: 'El token de acceso no es válido o venció (código 190): genera un token permanente.' }],
        }),
    });
    await waitFor(() => expect(input('Phone number id').value).toBe('109876543210987'));
    expect(input('Token de acceso permanente').value).toBe('');
    expect(screen.getByText('Déjalo vacío para conservar el token guardado.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Probar conexión' }));
    const result = await screen.findByRole('status', { name: 'Resultado de la prueba' });
    expect(within(result).getByText('La conexión tiene problemas:')).toBeTruthy();
    expect(within(result).getByText(/El token de acceso no es válido o venció \(código 190\)/)).toBeTruthy();
    expect(api.callsTo('POST', `${SETTINGS}/test`).map((call) => call.body)).toEqual([
      { provider: 'meta', phoneNumberId: '109876543210987', wabaId: '204567890123456' },
    ]);
  });

  describe('Baja de marketing', () => {
    const KEYWORDS = '/t/acme/api/whatsapp/opt-out-keywords';
    const openSection = async () => {
      fireEvent.click(await screen.findByText('Baja de marketing'));
      return screen.findByRole('form', { name: 'Baja de marketing' });
    };

    it('stays folded (nothing read) until opened, then lists the words and saves them comma-separated', async () => {
      const api = await openConnection({
        [`GET ${SETTINGS}`]: () => json(200, settings),
        [`GET ${KEYWORDS}`]: () => json(200, { keywords: ['STOP', 'BAJA'] }),
        [`PUT ${KEYWORDS}`]: () => json(200, { keywords: ['BAJA', 'CANCELAR'] }),
      });
      await screen.findByLabelText('Nombre de la app');
      expect(api.callsTo('GET', KEYWORDS)).toHaveLength(0);
      const section = await openSection();
      expect(
        screen.getByText(
          'Si un cliente escribe solo una de estas palabras, deja de recibir plantillas de marketing. Puede volver a recibirlas si lo pide desde WhatsApp.',
        ),
      ).toBeTruthy();
      const listed = within(section).getByRole('list', { name: 'Palabras de baja guardadas' });
      expect(
        within(listed)
          .getAllByRole('listitem')
          .map((item) => item.textContent),
      ).toEqual(['STOP', 'BAJA']);
      await waitFor(() => expect(input('Palabras de baja').value).toBe('STOP, BAJA'));
      fireEvent.change(input('Palabras de baja'), { target: { value: ' baja, Cancelar ,, ' } });
      fireEvent.click(within(section).getByRole('button', { name: 'Guardar palabras de baja' }));
      expect(await screen.findByText('Palabras de baja guardadas.')).toBeTruthy();
      expect(api.callsTo('PUT', KEYWORDS).map((call) => call.body)).toEqual([{ keywords: ['baja', 'Cancelar'] }]);
      expect(
        within(listed)
          .getAllByRole('listitem')
          .map((item) => item.textContent),
      ).toEqual(['BAJA', 'CANCELAR']);
      // The connection's own Guardar is still the one named so, and saves only the connection.
      expect(api.callsTo('PUT', SETTINGS)).toHaveLength(0);
      expect(screen.getAllByRole('button', { name: 'Guardar' })).toHaveLength(1);
    });

    it('says what is wrong with a word before sending, and shows the server refusal', async () => {
      const api = await openConnection({
        [`GET ${SETTINGS}`]: () => json(200, settings),
        [`GET ${KEYWORDS}`]: () => json(200, { keywords: ['STOP', 'BAJA'] }),
        [`PUT ${KEYWORDS}`]: () => json(403, { code: 'FORBIDDEN', message: 'No tienes permiso para esta acción.' }),
      });
      const section = await openSection();
      await waitFor(() => expect(input('Palabras de baja').value).toBe('STOP, BAJA'));
      const save = within(section).getByRole('button', { name: 'Guardar palabras de baja' });
      fireEvent.change(input('Palabras de baja'), { target: { value: 'BAJA, x' } });
      fireEvent.click(save);
      expect(await screen.findByText('«x»: cada palabra de baja debe tener entre 2 y 30 caracteres.')).toBeTruthy();
      fireEvent.change(input('Palabras de baja'), { target: { value: ' , ' } });
      fireEvent.click(save);
      expect(await screen.findByText('Escribe al menos una palabra de baja.')).toBeTruthy();
      fireEvent.change(input('Palabras de baja'), { target: { value: 'no más' } });
      fireEvent.click(save);
      expect(await screen.findByText('«no más»: una palabra de baja lleva solo letras y números, sin espacios ni signos.')).toBeTruthy();
      expect(api.callsTo('PUT', KEYWORDS)).toHaveLength(0);
      fireEvent.change(input('Palabras de baja'), { target: { value: 'ALTO' } });
      fireEvent.click(save);
      expect(await screen.findByText('No tienes permiso para esta acción.')).toBeTruthy();
    });
  });
});
