import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createQueryClient } from '../../app/query-client.ts';
import { aBoard, aCard } from '../chat/chat-test-fixtures.ts';
import { BoardCardItem } from './BoardCardItem.tsx';
import { BoardColumnView, type ColumnActions } from './BoardColumnView.tsx';

const noop = () => undefined;
const actions: ColumnActions = {
  onRename: noop,
  onColor: noop,
  onToggleAi: noop,
  onDelete: noop,
  onStartConversation: noop,
  onOpenSettings: noop,
  onOpenBot: noop,
  onDropCard: noop,
  onOpenCard: noop,
  onLoadMore: async () => undefined,
  onRenameCard: noop,
  onMoveCardToFunnel: noop,
};

function renderColumn() {
  const column = aBoard([aCard()]).columns[0]!;
  render(
    <QueryClientProvider client={createQueryClient()}>
      <BoardColumnView column={column} openCardId={null} actions={actions} />
    </QueryClientProvider>,
  );
  return screen.getByTestId('board-column');
}

describe('board menus', () => {
  it('the column menu closes on Escape and on a click elsewhere, not only when the pointer leaves it', () => {
    const column = renderColumn();
    const open = () => fireEvent.click(within(column).getByRole('button', { name: 'Opciones de la columna' }));

    open();
    expect(screen.getByRole('menuitem', { name: 'Borrar Columna' })).toBeTruthy();
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByRole('menu')).toBeNull();

    open();
    fireEvent.mouseDown(document.body);
    expect(screen.queryByRole('menu')).toBeNull();

    open();
    fireEvent.mouseDown(screen.getByRole('menuitem', { name: 'Borrar Columna' }));
    expect(screen.getByRole('menu')).toBeTruthy();
  });

  it('the card menu closes on Escape', () => {
    const column = renderColumn();
    fireEvent.click(within(column).getByRole('button', { name: 'Opciones del chat' }));
    expect(screen.getByRole('menuitem', { name: 'Renombrar' })).toBeTruthy();
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('a card is laid out only near the screen, except while its menu, which hangs outside the card, is open', () => {
    render(<BoardCardItem card={aCard()} active={false} onOpen={noop} onRename={noop} onMoveToFunnel={noop} />);
    const card = screen.getByTestId('board-card');
    expect(card.className).toContain('[content-visibility:auto]');
    fireEvent.click(within(card).getByRole('button', { name: 'Opciones del chat' }));
    expect(card.className).not.toContain('content-visibility');
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(card.className).toContain('[content-visibility:auto]');
  });
});
