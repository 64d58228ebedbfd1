import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { PLAN_FEATURE_MISSING } from '@embudo/contracts/http/plans';
import { describe, expect, it } from 'vitest';
import { json } from '../../test/fake-api.ts';
import { standInSockets } from '../../test/fake-socket.ts';
import { renderApp } from '../../test/render-app.tsx';
import type { Board } from '../board/board.api.ts';
import { AI_OFF_REASON_TEXT, aiSwitchNote, CAME_BEFORE_ASSISTANT, FLOW_BOT, NO_ASSISTANT } from './ai-switch-note.ts';
import { aBoard, aCard, createEmittingSocket, installBoardApi } from './chat-test-fixtures.ts';

standInSockets(createEmittingSocket);

const ASSISTANT = { isEnabled: true, systemPrompt: '', tools: [], quietSeconds: 4, pauseOnHumanReply: true, fallbackReply: '' };
const answering = { gemini_config: ASSISTANT, assistant_bot_id: null };
const silent = { gemini_config: null, assistant_bot_id: null };
const withBot = { gemini_config: { ...ASSISTANT, isEnabled: false }, assistant_bot_id: 'bot-1' };
const STARTER = PLAN_FEATURE_MISSING.ai_assistant('basic');

describe('aiSwitchNote', () => {
  it("says why the AI is off: a person's reason first, then the plan, then the column", () => {
    expect(aiSwitchNote({ aiEnabled: false, aiOffReason: 'team_reply' }, answering, null)).toBe('Alguien del equipo respondió');
    expect(aiSwitchNote({ aiEnabled: false, aiOffReason: 'by_hand' }, silent, STARTER)).toBe('Apagada a mano');
    expect(aiSwitchNote({ aiEnabled: false, aiOffReason: 'handed_over' }, answering, null)).toBe('La IA pasó el chat a una persona');
    expect(aiSwitchNote({ aiEnabled: false, aiOffReason: 'column_off' }, answering, null)).toBe(AI_OFF_REASON_TEXT.column_off);
    expect(aiSwitchNote({ aiEnabled: false, aiOffReason: null }, answering, STARTER)).toBe(STARTER);
    expect(aiSwitchNote({ aiEnabled: false, aiOffReason: null }, silent, null)).toBe(NO_ASSISTANT);
    expect(aiSwitchNote({ aiEnabled: false }, withBot, null)).toBe(FLOW_BOT);
    expect(aiSwitchNote({ aiEnabled: false, aiOffReason: null }, answering, null)).toBe(CAME_BEFORE_ASSISTANT);
    expect(aiSwitchNote({ aiEnabled: false, aiOffReason: null }, undefined, null)).toBeNull();
  });

  it('says nothing while the AI answers, and that it does not when the column or the plan keeps it silent', () => {
    expect(aiSwitchNote({ aiEnabled: true, aiOffReason: null }, answering, null)).toBeNull();
    expect(aiSwitchNote({ aiEnabled: true, aiOffReason: null }, undefined, null)).toBeNull();
    expect(aiSwitchNote({ aiEnabled: true, aiOffReason: null }, silent, null)).toBe('No responde: esta columna no tiene asistente');
    expect(aiSwitchNote({ aiEnabled: true, aiOffReason: null }, withBot, null)).toBe('No responde: la columna tiene un bot de flujo');
    expect(aiSwitchNote({ aiEnabled: true, aiOffReason: null }, answering, STARTER)).toMatch(/^No responde: el asistente de IA es una función del plan Pro/);
  });
});

function boardWithAssistant(card: ReturnType<typeof aCard>): Board {
  const board = aBoard([card]);
  return { ...board, columns: board.columns.map((column) => (column.id === 'col1' ? { ...column, gemini_config: ASSISTANT } : column)) };
}

async function openChat() {
  renderApp('/t/acme');
  await screen.findByRole('heading', { name: 'Sales Funnel' }, { timeout: 5000 });
  fireEvent.click(await screen.findByRole('button', { name: 'Abrir chat Lucía Pérez' }, { timeout: 5000 }));
  return screen.findByTestId('chat-panel');
}

describe("the chat header's AI switch", () => {
  it("shows why it is off, as the switch's description, and follows a switch by hand", async () => {
    const card = aCard({ aiEnabled: false, aiOffReason: 'team_reply' });
    installBoardApi(
      boardWithAssistant(card),
      [],
      {
        'PUT /t/acme/api/cards/c1/toggle-ai': (call) => {
          const { enabled } = call.body as { enabled: boolean };
          return json(200, aCard({ aiEnabled: enabled, aiOffReason: enabled ? null : 'by_hand' }));
        },
      },
      { tenant: { subscription_plan: 'professional' } },
    );
    const panel = await openChat();
    const inactive = within(panel).getByRole('switch', { name: 'AI Inactiva' });
    expect(within(panel).getByTestId('ai-switch-note').textContent).toBe('Alguien del equipo respondió');
    expect(inactive.getAttribute('aria-describedby')).toBe(within(panel).getByTestId('ai-switch-note').id);

    fireEvent.click(inactive);
    await waitFor(() => expect(within(panel).getByRole('switch', { name: 'AI Activa' })).toBeTruthy());
    expect(within(panel).queryByTestId('ai-switch-note')).toBeNull();
    fireEvent.click(within(panel).getByRole('switch', { name: 'AI Activa' }));
    await waitFor(() => expect(within(panel).getByTestId('ai-switch-note').textContent).toBe('Apagada a mano'));
  });

  it("says the chat's column has no assistant when that is why", async () => {
    installBoardApi(aBoard([aCard({ aiEnabled: false, aiOffReason: null })]), [], {}, { tenant: { subscription_plan: 'professional' } });
    const panel = await openChat();
    expect(within(panel).getByRole('switch', { name: 'AI Inactiva' })).toBeTruthy();
    expect(within(panel).getByTestId('ai-switch-note').textContent).toBe('Esta columna no tiene asistente');
  });
});
