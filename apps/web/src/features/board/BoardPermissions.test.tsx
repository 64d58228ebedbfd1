import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../test/render-app.tsx';
import { aUser } from '../../test/session-fixture.ts';
import { aBoard, aCard, aMessage, createEmittingSocket, installBoardApi } from '../chat/chat-test-fixtures.ts';
import { standInSockets } from '../../test/fake-socket.ts';

const socket = standInSockets(createEmittingSocket);

async function openBoard() {
  renderApp('/t/acme');
  // The first render of a test file also loads the app's modules: give it time on a busy machine.
  await screen.findByRole('heading', { level: 1, name: 'Sales Funnel' }, { timeout: 5000 });
  await screen.findAllByTestId('board-column');
}

const AI_NOT_IN_PLAN = 'El asistente de IA es una función del plan Pro. Tu plan Básico (Starter) no lo incluye.';

describe('what the board shows each role', () => {
  it('a viewer reads the board and chat but gets no tool that changes anything', async () => {
    const api = installBoardApi(aBoard([aCard({ unreadCount: 2 })]), [aMessage()], {}, { user: { role: 'viewer', funnel_access: ['f1'] } });
    await openBoard();
    for (const name of [
      '+ Nuevo Funnel',
      '+ Nueva Columna',
      'Envío Masivo',
      'Renombrar funnel',
      'Opciones de la columna',
      'Opciones del chat',
      '+ Iniciar Conversación',
    ]) {
      expect(screen.queryByRole('button', { name }), name).toBeNull();
    }
    const card = screen.getByTestId('board-card');
    expect(card.getAttribute('draggable')).toBe('false');

    fireEvent.click(card);
    const panel = await screen.findByTestId('chat-panel');
    expect(within(panel).getByTestId('read-only-note').textContent).toBe('Tu rol de Visualizador solo permite consultar este chat.');
    expect(within(panel).queryByRole('button', { name: 'Archivar' })).toBeNull();
    expect((within(panel).getByRole('switch') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(within(panel).getByRole('tab', { name: 'Notas Internas' }));
    expect(within(panel).queryByLabelText('Nota interna')).toBeNull();
    // Reading a chat leaves its unread state to the people who work it.
    expect(api.callsTo('POST', '/t/acme/api/cards/c1/mark-read')).toHaveLength(0);
  });

  it('an agent works the board but does not create funnels', async () => {
    installBoardApi(aBoard(), [], {}, { user: { role: 'agent', funnel_access: ['f1'] } });
    await openBoard();
    expect(screen.queryByRole('button', { name: '+ Nuevo Funnel' })).toBeNull();
    expect(screen.getByRole('button', { name: '+ Nueva Columna' })).toBeTruthy();
    expect(screen.getByTestId('board-card').getAttribute('draggable')).toBe('true');
  });

  it('on Starter the AI switches explain that the plan does not include the assistant', async () => {
    const api = installBoardApi(aBoard(), [aMessage()]);
    await openBoard();
    fireEvent.click(within(screen.getAllByTestId('board-column')[0]!).getByRole('button', { name: 'Opciones de la columna' }));
    const switchOn = screen.getByRole('menuitem', { name: /Activar AI en todos/ }) as HTMLButtonElement;
    expect(switchOn.disabled).toBe(true);
    expect(switchOn.textContent).toContain(AI_NOT_IN_PLAN);

    fireEvent.click(screen.getByTestId('board-card'));
    const panel = await screen.findByTestId('chat-panel');
    expect(within(panel).getByTestId('ai-plan-note').textContent).toBe(AI_NOT_IN_PLAN);
    fireEvent.click(within(panel).getByRole('switch', { name: 'AI Inactiva' }));
    expect((await screen.findAllByText(AI_NOT_IN_PLAN)).length).toBeGreaterThan(1);
    expect(api.callsTo('PUT', '/t/acme/api/cards/c1/toggle-ai')).toHaveLength(0);
  });

  it('on Pro the AI switches work', async () => {
    installBoardApi(aBoard(), [aMessage()], {}, { tenant: { subscription_plan: 'professional' } });
    await openBoard();
    fireEvent.click(screen.getByTestId('board-card'));
    const panel = await screen.findByTestId('chat-panel');
    expect(within(panel).queryByTestId('ai-plan-note')).toBeNull();
    expect(within(panel).getByRole('switch', { name: 'AI Inactiva' }).getAttribute('aria-disabled')).toBeNull();
  });

  it('follows a role change made by an owner at once (user_updated)', async () => {
    const api = installBoardApi(aBoard(), [], {}, { user: { role: 'agent', funnel_access: ['f1'] } });
    await openBoard();
    expect(screen.getByRole('button', { name: '+ Nueva Columna' })).toBeTruthy();
    const funnelCalls = api.callsTo('GET', '/t/acme/api/funnels/summary').length;
    await act(async () => socket.current!.serverEmit('user_updated', aUser({ role: 'viewer', funnel_access: ['f1'] })));
    await waitFor(() => expect(screen.queryByRole('button', { name: '+ Nueva Columna' })).toBeNull());
    expect(screen.getByTestId('board-card').getAttribute('draggable')).toBe('false');
    await waitFor(() => expect(api.callsTo('GET', '/t/acme/api/funnels/summary').length).toBeGreaterThan(funnelCalls));
  });
});
