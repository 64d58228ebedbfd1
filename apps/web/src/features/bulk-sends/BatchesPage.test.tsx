import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { BatchDto } from '@embudo/contracts/http/bulk-sends';
import { json } from '../../test/fake-api.ts';
import { renderApp } from '../../test/render-app.tsx';
import { createEmittingSocket } from '../chat/chat-test-fixtures.ts';
import { installTemplatesApi } from '../templates/templates-test-fixtures.ts';
import { batchFunnel, batchPace, percent } from './batch-funnel.ts';
import { readExcelSummary } from './excel-workbook.ts';
import { standInSockets } from '../../test/fake-socket.ts';

const socket = standInSockets(createEmittingSocket);

function aBatch(overrides: Partial<BatchDto> = {}): BatchDto {
  return {
    id: 'b1',
    created_at: '2025-03-04T15:30:00.000Z',
    status: 'completed',
    message_template_name: 'aviso_pedido',
    user_name: 'Ana María',
    total_messages: 8,
    sent_count: 6,
    delivered_count: 4,
    read_count: 3,
    replied_count: 2,
    failed_count: 2,
    failure_reason: null,
    funnel_id: 'f1',
    ...overrides,
  };
}

const rowOf = (id: string) => within(screen.getAllByTestId('batch-row').find((row) => row.getAttribute('data-batch-id') === id)!);

describe('batches dashboard', () => {
  it('shows the rate and the estimated end of a processing batch, and nothing of the kind for a finished one', async () => {
    const end = new Date();
    end.setHours(14, 32, 0, 0);
    installTemplatesApi({
      'GET /t/acme/api/batches': () =>
        json(200, [aBatch({ id: 'b9', status: 'processing', send_rate: 80, estimated_end_at: end.toISOString() }), aBatch({ id: 'b8' })]),
    });
    renderApp('/t/acme/batches');
    await screen.findAllByTestId('batch-row');
    expect(rowOf('b9').getByTestId('batch-pace').textContent).toBe('Ritmo: 80 msg/s · Fin estimado: 14:32');
    expect(rowOf('b8').queryByTestId('batch-pace')).toBeNull();
  });

  it('writes a slowed rate with its decimal, an end on another day with its date, and only the rate without an estimate', () => {
    const now = new Date(2026, 10, 25, 10, 0);
    expect(batchPace({ status: 'processing', send_rate: 2.5, estimated_end_at: new Date(2026, 10, 25, 10, 5).toISOString() }, now)).toBe(
      'Ritmo: 2,5 msg/s · Fin estimado: 10:05',
    );
    expect(batchPace({ status: 'processing', send_rate: 20, estimated_end_at: new Date(2026, 10, 26, 9, 7).toISOString() }, now)).toBe(
      'Ritmo: 20 msg/s · Fin estimado: 26/11/26, 9:07',
    );
    expect(batchPace({ status: 'processing', send_rate: 20 }, now)).toBe('Ritmo: 20 msg/s');
    expect(batchPace({ status: 'completed', send_rate: 20 }, now)).toBeUndefined();
  });

  it('lists the failed rows with phone and reason, and downloads them as a spreadsheet', async () => {
    const failures = [
      { row_number: 3, phone: '0005215561000', contact_name: 'Beto', reason: 'El cliente no tiene WhatsApp', code: '131026' },
      { row_number: 4, phone: null, contact_name: 'Cata', reason: 'Fila 4: el teléfono «12345» no es válido.', code: null },
    ];
    installTemplatesApi({
      'GET /t/acme/api/batches': () =>
        json(200, [aBatch({ id: 'b7', failed_count: 2, failure_reason: 'El cliente no tiene WhatsApp' }), aBatch({ id: 'b6', failed_count: 0 })]),
      'GET /t/acme/api/batches/b7/failures': () => json(200, failures),
    });
    renderApp('/t/acme/batches');
    await screen.findAllByTestId('batch-row');
    expect(rowOf('b6').queryByRole('button', { name: 'Ver fallidos' })).toBeNull();
    fireEvent.click(rowOf('b7').getByRole('button', { name: 'Ver fallidos' }));
    const list = within(await screen.findByTestId('batch-failures'));
    const rows = await list.findAllByTestId('batch-failure-row');
    expect(rows.map((row) => within(row).getByTestId('batch-failure-phone').textContent)).toEqual(['0005215561000', '—']);
    expect(within(rows[0]!).getByTestId('batch-failure-reason').textContent).toBe('El cliente no tiene WhatsApp (código 131026)');

    const created: Blob[] = [];
    vi.stubGlobal(
      'URL',
      class extends URL {
        static override createObjectURL(blob: Blob) {
          created.push(blob);
          return 'blob:fallidos';
        }
        static override revokeObjectURL() {}
      },
    );
    const clicked: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.download);
    });
    fireEvent.click(list.getByRole('button', { name: 'Descargar (.xlsx)' }));
    await waitFor(() => expect(clicked).toEqual(['envio_aviso_pedido_fallidos.xlsx']));
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
    expect(await readExcelSummary(created[0]!)).toEqual({ headers: ['Fila', 'Teléfono', 'Nombre', 'Motivo', 'Código'], rowCount: 2 });
  });

  it("shows why a batch's rows failed, such as the provider's refusal", async () => {
    installTemplatesApi({
      'GET /t/acme/api/batches': () =>
        json(200, [
          aBatch({
            id: 'b9',
            status: 'failed',
            sent_count: 0,
            delivered_count: 0,
            read_count: 0,
            replied_count: 0,
            failed_count: 2,
            failure_reason: '4003 Template is REJECTED, not APPROVED',
          }),
          aBatch({ id: 'b8', failed_count: 0 }),
        ]),
    });
    renderApp('/t/acme/batches');
    await screen.findAllByTestId('batch-row');
    expect(rowOf('b9').getByTestId('batch-failure-reason').textContent).toBe('4003 Template is REJECTED, not APPROVED');
    expect(rowOf('b8').queryByTestId('batch-failure-reason')).toBeNull();
  });

  it('shows each batch with its status, counts and funnel percentages, failed highlighted when above 0', async () => {
    installTemplatesApi({
      'GET /t/acme/api/batches': () =>
        json(200, [
          aBatch(),
          aBatch({ id: 'b2', status: 'processing', total_messages: 3, sent_count: 0, delivered_count: 0, read_count: 0, replied_count: 0, failed_count: 0 }),
          aBatch({ id: 'b3', status: 'failed', total_messages: 2, sent_count: 0, delivered_count: 0, read_count: 0, replied_count: 0, failed_count: 2 }),
        ]),
    });
    renderApp('/t/acme/batches');
    expect(await screen.findByRole('heading', { level: 1, name: 'Dashboard de Envíos Masivos' })).toBeTruthy();
    await screen.findAllByTestId('batch-row');
    expect(screen.getAllByRole('columnheader').map((header) => header.textContent)).toEqual([
      'Fecha',
      'Estado',
      'Plantilla',
      'Iniciado Por',
      'Total',
      'Enviados',
      'Entregados',
      'Leídos',
      'Respondidos',
      'Fallidos',
    ]);

    const done = rowOf('b1');
    expect(done.getByTestId('batch-status').textContent).toBe('Completado');
    expect(done.getByTestId('batch-status').getAttribute('data-tone')).toBe('approved');
    expect(done.getByText('aviso_pedido')).toBeTruthy();
    expect(done.getByText('Ana María')).toBeTruthy();
    expect(done.getByTestId('batch-total').textContent).toBe('8');
    expect(done.getByTestId('batch-sent-percent').textContent).toBe('75%');
    expect(done.getByTestId('batch-delivered-percent').textContent).toBe('67%');
    expect(done.getByTestId('batch-read-percent').textContent).toBe('75%');
    expect(done.getByTestId('batch-replied-percent').textContent).toBe('33%');
    expect(done.getByTestId('batch-failed').getAttribute('data-highlighted')).toBe('true');

    const running = rowOf('b2');
    expect(running.getByTestId('batch-status').textContent).toBe('Procesando');
    expect(running.getByTestId('batch-status').getAttribute('data-tone')).toBe('pending');
    expect(running.getByTestId('batch-sent-percent').textContent).toBe('0%');
    expect(running.getByTestId('batch-delivered-percent').textContent).toBe('—');
    expect(running.getByTestId('batch-failed').getAttribute('data-highlighted')).toBe('false');

    expect(rowOf('b3').getByTestId('batch-status').textContent).toBe('Fallido');
    expect(rowOf('b3').getByTestId('batch-status').getAttribute('data-tone')).toBe('rejected');
  });

  it('reads the list again when the server pushes batch_updated', async () => {
    const api = installTemplatesApi({ 'GET /t/acme/api/batches': () => json(200, [aBatch({ status: 'processing', sent_count: 0 })]) });
    renderApp('/t/acme/batches');
    await screen.findAllByTestId('batch-row');
    expect(rowOf('b1').getByTestId('batch-sent').textContent).toBe('0');
    api.setHandler('GET /t/acme/api/batches', () => json(200, [aBatch({ status: 'completed', sent_count: 7 })]));
    await waitFor(() => expect(socket.current).not.toBeNull());
    act(() => socket.current!.serverEmit('batch_updated', { batchId: 'b1' }));
    await waitFor(() => expect(rowOf('b1').getByTestId('batch-sent').textContent).toBe('7'));
    expect(rowOf('b1').getByTestId('batch-status').textContent).toBe('Completado');
  });

  it('points to the Envío Masivo button of the funnel view when there is no batch yet', async () => {
    installTemplatesApi({ 'GET /t/acme/api/batches': () => json(200, []) });
    renderApp('/t/acme/batches');
    expect(await screen.findByText('Aún no hay envíos masivos. Inicia uno con el botón Envío Masivo en la vista del funnel.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Ir al Sales Funnel' }).getAttribute('href')).toBe('/t/acme');
  });

  it('says Failed to load batches. when the list cannot be loaded', async () => {
    installTemplatesApi({ 'GET /t/acme/api/batches': () => new Response('', { status: 500 }) });
    renderApp('/t/acme/batches');
    await waitFor(() => expect(screen.getAllByText('Failed to load batches.')).toHaveLength(2));
  });
});

describe('batch funnel', () => {
  it('divides each step by the one before it, rounding to whole percents', () => {
    expect(batchFunnel({ total_messages: 3, sent_count: 2, delivered_count: 2, read_count: 1, replied_count: 1 })).toEqual({
      sent: '67%',
      delivered: '100%',
      read: '50%',
      replied: '50%',
    });
    expect(batchFunnel({ total_messages: 0, sent_count: 0, delivered_count: 0, read_count: 0, replied_count: 0 })).toEqual({
      sent: '—',
      delivered: '—',
      read: '—',
      replied: '—',
    });
    expect(percent(1, 200)).toBe('1%');
  });
});
