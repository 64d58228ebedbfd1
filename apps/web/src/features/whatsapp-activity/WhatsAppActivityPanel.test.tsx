import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { WhatsappActivity } from '@embudo/contracts/http/whatsapp-activity';
import { installFakeApi, json } from '../../test/fake-api.ts';
import { renderApp } from '../../test/render-app.tsx';
import { aTenant, aUser, storeSession } from '../../test/session-fixture.ts';

const settings = { appName: 'sandbox-acme', sourceNumber: '15550001000', webhookUrl: 'http://localhost:3000/webhooks/gupshup/t/secret', sandbox: true };
const now = Date.now();
const hourMs = 3_600_000;

function activity(overrides: Partial<WhatsappActivity> = {}): WhatsappActivity {
  return {
    lastInboundMessageAt: new Date(now - 5 * 60_000).toISOString(),
    lastStatusAt: null,
    hours: Array.from({ length: 24 }, (_, index) => ({
      hour: new Date(now - (23 - index) * hourMs).toISOString(),
      messages: index === 23 ? 3 : 0,
      statuses: index === 22 ? 2 : 0,
      refused: index === 23 ? 1 : 0,
      malformed: 0,
    })),
    refusedDeliveries: [
      {
        id: 'r1',
        kind: 'wrong_secret',
        reason: 'La URL del webhook no lleva el secreto de la empresa: copia otra vez en Gupshup la URL de webhook que muestra Conexión WhatsApp.',
        rawBody: '{"app":"Acme"}',
        receivedAt: new Date(now).toISOString(),
      },
    ],
    failedSends: [
      {
        messageId: 'm1',
        cardId: 'c1',
        chatTitle: 'Marta',
        phone: '5215511112222',
        type: 'text',
        code: '1002',
        reason: 'El cliente no tiene WhatsApp',
        createdAt: new Date(now).toISOString(),
      },
    ],
    failedJobs: [
      {
        id: 'j1',
        name: 'chats.send-read-receipt',
        label: 'Avisar a WhatsApp que se leyó un chat',
        lastError: 'Gupshup no respondió',
        attempts: 5,
        failedAt: new Date(now).toISOString(),
      },
    ],
    ...overrides,
  };
}

async function openConnection(handlers: Parameters<typeof installFakeApi>[0]) {
  const user = aUser({ name: 'Ana María' });
  const tenant = aTenant();
  storeSession(user, tenant);
  const api = installFakeApi({
    'GET /api/auth/me': () => json(200, { user, tenant }),
    'GET /t/acme/api/gupshup/settings': () => json(200, settings),
    ...handlers,
  });
  renderApp('/t/acme');
  await screen.findByRole('heading', { name: 'Sales Funnel' });
  fireEvent.click(screen.getByTestId('user-menu-button'));
  fireEvent.click(screen.getByRole('menuitem', { name: 'Conexión WhatsApp' }));
  return api;
}

describe('WhatsApp activity in Conexión WhatsApp', () => {
  it('shows the last message and status, the hourly chart, refused deliveries, failed sends and failed jobs', async () => {
    await openConnection({ 'GET /t/acme/api/whatsapp/activity': () => json(200, activity()) });
    const panel = await screen.findByTestId('whatsapp-activity');
    expect(await within(panel).findByTestId('last-inbound')).toHaveProperty('textContent', 'hace 5 min');
    expect(within(panel).getByTestId('last-status').textContent).toBe('Nunca');
    const chart = within(panel).getByRole('img', { name: 'Entregas por hora en las últimas 24 horas: 6 en total' });
    expect(within(chart).getAllByTestId('deliveries-chart-hour')).toHaveLength(24);
    expect(within(panel).getByTestId('refused-delivery').textContent).toContain('Secreto del webhook incorrecto');
    expect(within(panel).getByTestId('refused-delivery').textContent).toContain('{"app":"Acme"}');
    const send = within(panel).getByTestId('failed-send');
    expect(send.textContent).toContain('Marta');
    expect(send.textContent).toContain('1002');
    expect(send.textContent).toContain('El cliente no tiene WhatsApp');
    expect(within(panel).getByTestId('failed-job').textContent).toContain('Avisar a WhatsApp que se leyó un chat');
  });

  it('Reintentar queues the failed job again and reloads the panel', async () => {
    let retried = false;
    const api = await openConnection({
      'GET /t/acme/api/whatsapp/activity': () => json(200, retried ? activity({ failedJobs: [] }) : activity()),
      'POST /t/acme/api/whatsapp/activity/jobs/j1/retry': () => {
        retried = true;
        return json(200, { id: 'j1', status: 'pending' });
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Reintentar: Avisar a WhatsApp que se leyó un chat' }));
    expect(await screen.findByText('El trabajo se volvió a poner en la cola.')).toBeTruthy();
    await waitFor(() => expect(screen.queryByTestId('failed-job')).toBeNull());
    expect(screen.getByText('Ninguno: todo lo pendiente se completó o sigue en curso.')).toBeTruthy();
    expect(api.callsTo('POST', '/t/acme/api/whatsapp/activity/jobs/j1/retry')).toHaveLength(1);
  });

  it("shows the server's message when a retry is refused", async () => {
    await openConnection({
      'GET /t/acme/api/whatsapp/activity': () => json(200, activity()),
      'POST /t/acme/api/whatsapp/activity/jobs/j1/retry': () =>
        json(409, { code: 'CONFLICT', message: 'Ese trabajo ya está en la cola: espera a que termine.' }),
    });
    fireEvent.click(await screen.findByRole('button', { name: /^Reintentar/ }));
    expect(await screen.findByText('Ese trabajo ya está en la cola: espera a que termine.')).toBeTruthy();
  });

  it("shows the number's health: quality, daily limit and Meta's last event with its date", async () => {
    const numberHealth = { quality: 'RED', dailyLimit: 1000, lastEvent: 'FLAGGED', lastEventAt: '2026-12-02T15:00:00.000Z' } as const;
    await openConnection({ 'GET /t/acme/api/whatsapp/activity': () => json(200, activity({ numberHealth })) });
    const health = await screen.findByTestId('number-health');
    expect([...health.querySelectorAll('li')].map((item) => item.textContent)).toEqual([
      'Calidad del número: Baja',
      'Límite diario: 1.000 conversaciones',
      'Meta marcó el número (FLAGGED) el 2/12/26',
    ]);
  });

  it('says so when the provider has reported nothing, and an unlimited number as sin límite', async () => {
    let numberHealth: WhatsappActivity['numberHealth'] = { quality: null, dailyLimit: null, lastEvent: null, lastEventAt: null };
    await openConnection({ 'GET /t/acme/api/whatsapp/activity': () => json(200, activity({ numberHealth })) });
    const lines = async () => [...(await screen.findByTestId('number-health')).querySelectorAll('li')].map((item) => item.textContent);
    expect(await lines()).toEqual(['Calidad del número: Desconocida', 'Límite diario: sin datos', 'Meta aún no envió avisos sobre el número.']);
    numberHealth = { quality: 'GREEN', dailyLimit: null, lastEvent: 'UPGRADE', lastEventAt: '2027-01-09T15:00:00.000Z' };
    fireEvent.click(within(screen.getByTestId('whatsapp-activity')).getByRole('button', { name: 'Actualizar' }));
    await waitFor(async () => expect((await lines())[0]).toBe('Calidad del número: Alta'));
    expect(await lines()).toEqual(['Calidad del número: Alta', 'Límite diario: sin límite', 'Meta subió el límite del número (UPGRADE) el 9/1/27']);
  });

  it('shows no health section to an older server that does not send it', async () => {
    await openConnection({ 'GET /t/acme/api/whatsapp/activity': () => json(200, activity()) });
    await screen.findByTestId('last-inbound');
    expect(screen.queryByTestId('number-health')).toBeNull();
  });
});
