import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { OPERATOR_BLOCK_NOTICE } from '@embudo/contracts/http/templates';
import { json } from '../../test/fake-api.ts';
import { renderApp } from '../../test/render-app.tsx';
import { aTemplate, installTemplatesApi } from './templates-test-fixtures.ts';

const card = (name: string) => screen.getByRole('article', { name });

describe('templates list', () => {
  it('shows each template with its preview, category, status chip and rejection reason', async () => {
    installTemplatesApi({
      'GET /t/acme/api/templates': () =>
        json(200, [
          aTemplate({
            id: 'a',
            name: 'aprobada',
            status: 'APPROVED',
            header: { type: 'TEXT', text: 'Tu pedido' },
            footer: 'Gracias',
            buttons: [{ type: 'QUICK_REPLY', text: 'Ver estado' }],
          }),
          aTemplate({ id: 'p', name: 'pausada', status: 'PAUSED', category: 'MARKETING' }),
          aTemplate({ id: 'f', name: 'fallida', status: 'FAILED', rejection_reason: 'Formato inválido' }),
          aTemplate({ id: 'r', name: 'rechazada', status: 'REJECTED', rejection_reason: 'Contenido no permitido' }),
        ]),
    });
    const app = renderApp('/t/acme/templates');
    expect(await screen.findByRole('heading', { level: 1, name: 'Plantillas de Mensajes' })).toBeTruthy();
    await screen.findByRole('article', { name: 'aprobada' });

    const approved = within(card('aprobada'));
    expect(approved.getByTestId('template-status').textContent).toBe('Aprobada');
    expect(approved.getByTestId('template-category').textContent).toBe('UTILITY');
    expect(approved.getByTestId('template-preview').textContent).toContain('Tu pedido');
    expect(approved.getByTestId('preview-body').textContent).toBe('Hola {{1}}, tu pedido está listo.');
    expect(approved.getByTestId('preview-footer').textContent).toBe('Gracias');
    expect(approved.getByRole('list', { name: 'Botones de la plantilla' }).textContent).toContain('Ver estado');
    expect(approved.queryByTestId('rejection-reason')).toBeNull();

    expect(within(card('pausada')).getByTestId('template-status').textContent).toBe('Pendiente');
    expect(within(card('pausada')).getByTestId('template-category').textContent).toBe('MARKETING');
    expect(within(card('fallida')).getByTestId('template-status').textContent).toBe('Rechazada');
    expect(within(card('fallida')).getByTestId('rejection-reason').textContent).toContain('Formato inválido');
    expect(within(card('rechazada')).getByTestId('rejection-reason').textContent).toContain('Contenido no permitido');
    // Spec 02 §2: each card has edit and delete buttons.
    expect(within(card('rechazada')).getByRole('button', { name: 'Eliminar rechazada' })).toBeTruthy();
    fireEvent.click(within(card('rechazada')).getByRole('button', { name: 'Editar rechazada' }));
    await waitFor(() => expect(app.pathname()).toBe('/t/acme/templates/r'));
  });

  it("shows a template the operator blocked as a platform block with the operator's reason", async () => {
    installTemplatesApi({
      'GET /t/acme/api/templates': () =>
        json(200, [
          aTemplate({ id: 'b', name: 'bloqueada', status: 'REJECTED', rejection_reason: 'Promociona apuestas.', blocked_by_operator: true }),
          aTemplate({ id: 'm', name: 'meta_rechazo', status: 'REJECTED', rejection_reason: 'Contenido no permitido' }),
        ]),
    });
    renderApp('/t/acme/templates');
    const blocked = within(await screen.findByRole('article', { name: 'bloqueada' }));
    expect(blocked.getByTestId('operator-block').textContent).toContain(OPERATOR_BLOCK_NOTICE);
    expect(blocked.getByTestId('rejection-reason').textContent).toBe('Motivo del rechazo: Promociona apuestas.');
    expect(within(card('meta_rechazo')).queryByTestId('operator-block')).toBeNull();
    expect(within(card('meta_rechazo')).getByTestId('rejection-reason').textContent).toContain('Contenido no permitido');
  });

  it('shows the empty state, and its Crear Nueva Plantilla button opens the editor', async () => {
    installTemplatesApi({ 'GET /t/acme/api/templates': () => json(200, { templates: [] }) });
    const app = renderApp('/t/acme/templates');
    expect(await screen.findByText('Aún no tienes plantillas.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Sincronizar con Meta' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Crear Nueva Plantilla' }));
    await waitFor(() => expect(app.pathname()).toBe('/t/acme/templates/new'));
  });

  it('says when the list fails to load', async () => {
    installTemplatesApi({ 'GET /t/acme/api/templates': () => new Response('boom', { status: 500 }) });
    renderApp('/t/acme/templates');
    // The notification and the page itself both say it.
    await waitFor(() => expect(screen.getAllByText('Failed to load templates.')).toHaveLength(2));
  });

  it('syncs with Meta: the info first, then the refreshed statuses and Sync complete!', async () => {
    let answer!: (response: Response) => void;
    const api = installTemplatesApi({
      'GET /t/acme/api/templates': () => json(200, [aTemplate({ status: 'PENDING' })]),
      'POST /t/acme/api/templates/sync': () => new Promise<Response>((resolve) => (answer = resolve)),
    });
    renderApp('/t/acme/templates');
    await screen.findByRole('article', { name: 'aviso_pedido' });
    expect(within(card('aviso_pedido')).getByTestId('template-status').textContent).toBe('Pendiente');
    fireEvent.click(screen.getByRole('button', { name: 'Sincronizar con Meta' }));
    expect(await screen.findByText('Syncing template statuses with Meta...')).toBeTruthy();
    await waitFor(() => expect(api.callsTo('POST', '/t/acme/api/templates/sync')).toHaveLength(1));
    api.setHandler('GET /t/acme/api/templates', () => json(200, [aTemplate({ status: 'APPROVED' })]));
    answer(json(200, { synced: 1, templates: [aTemplate({ status: 'APPROVED' })] }));
    expect(await screen.findByText('Sync complete!')).toBeTruthy();
    await waitFor(() => expect(within(card('aviso_pedido')).getByTestId('template-status').textContent).toBe('Aprobada'));
  });

  it("says when the sync fails, with the server's reason when it gave one", async () => {
    installTemplatesApi({
      'GET /t/acme/api/templates': () => json(200, [aTemplate()]),
      'POST /t/acme/api/templates/sync': () => new Response('', { status: 502 }),
    });
    renderApp('/t/acme/templates');
    await screen.findByRole('article', { name: 'aviso_pedido' });
    fireEvent.click(screen.getByRole('button', { name: 'Sincronizar con Meta' }));
    expect(await screen.findByText('Failed to sync templates.')).toBeTruthy();
  });

  it('deletes after the irreversible-delete question, and keeps the card when the server refuses', async () => {
    let stored = [aTemplate({ id: 'a', name: 'primera' }), aTemplate({ id: 'b', name: 'segunda' })];
    const api = installTemplatesApi({
      'GET /t/acme/api/templates': () => json(200, stored),
      'DELETE /t/acme/api/templates/a': () => {
        stored = stored.filter((template) => template.id !== 'a');
        return new Response(null, { status: 204 });
      },
      'DELETE /t/acme/api/templates/b': () =>
        json(502, { code: 'BAD_GATEWAY', message: 'No se pudo eliminar la plantilla en Gupshup: Template Cannot be deleted' }),
    });
    renderApp('/t/acme/templates');
    await screen.findByRole('article', { name: 'primera' });

    fireEvent.click(screen.getByRole('button', { name: 'Eliminar primera' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Are you sure you want to delete this template? This action is irreversible.')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
    expect(api.callsTo('DELETE', '/t/acme/api/templates/a')).toHaveLength(0);

    fireEvent.click(screen.getByRole('button', { name: 'Eliminar primera' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Eliminar' }));
    expect(await screen.findByText('Template deleted successfully.')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('article', { name: 'primera' })).toBeNull());

    fireEvent.click(screen.getByRole('button', { name: 'Eliminar segunda' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Eliminar' }));
    expect(await screen.findByText('No se pudo eliminar la plantilla en Gupshup: Template Cannot be deleted')).toBeTruthy();
    expect(screen.getByRole('article', { name: 'segunda' })).toBeTruthy();
  });

  it('shows agents the templates without the actions only owners and admins may take', async () => {
    installTemplatesApi({ 'GET /t/acme/api/templates': () => json(200, [aTemplate()]) }, 'agent');
    renderApp('/t/acme/templates');
    await screen.findByRole('article', { name: 'aviso_pedido' });
    expect(screen.queryByRole('button', { name: 'Sincronizar con Meta' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Crear Nueva Plantilla' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Editar aviso_pedido' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Eliminar aviso_pedido' })).toBeNull();
  });
});
