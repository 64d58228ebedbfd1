import { render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { aCard } from '../chat/chat-test-fixtures.ts';
import { CardList, firstPassCards } from './CardList.tsx';

const noop = () => undefined;

afterEach(() => vi.restoreAllMocks());

describe('CardList', () => {
  it('renders only what is on screen of a column with 5,000 chats', () => {
    // jsdom lays nothing out: the column is as tall as on a laptop screen, each card 112 px.
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(800);
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(288);
    vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockReturnValue(112);
    const cards = Array.from({ length: 5000 }, (_, index) => aCard({ id: `c${index}`, title: `Cliente ${index}` }));
    render(<CardList cards={cards} openCardId={null} onOpen={noop} onRename={noop} onMoveToFunnel={noop} />);
    const list = screen.getByTestId('card-list');
    expect(list.getAttribute('data-virtual')).toBe('true');
    const rendered = screen.queryAllByTestId('board-card').length;
    expect(rendered).toBeGreaterThan(0);
    expect(rendered).toBeLessThan(50);
    // The scroll height stands for every card, so the scrollbar covers the whole column.
    expect(Number.parseInt((list.firstElementChild as HTMLElement).style.height, 10)).toBeGreaterThanOrEqual(5000 * 100);
  });

  it('renders a short column as a plain list', () => {
    render(<CardList cards={[aCard(), aCard({ id: 'c2' })]} openCardId={null} onOpen={noop} onRename={noop} onMoveToFunnel={noop} />);
    expect(screen.getByTestId('card-list').getAttribute('data-virtual')).toBeNull();
    expect(screen.getAllByTestId('board-card')).toHaveLength(2);
  });

  it('renders every card of a short column: a screenful first, the rest right after', async () => {
    const cards = Array.from({ length: 50 }, (_, index) => aCard({ id: `c${index}`, title: `Cliente ${index}` }));
    render(<CardList cards={cards} openCardId={null} onOpen={noop} onRename={noop} onMoveToFunnel={noop} />);
    await waitFor(() => expect(screen.getAllByTestId('board-card')).toHaveLength(50));
    expect(screen.getByText('Cliente 49')).toBeTruthy();
  });

  it('renders first what a window shows: six cards at 900 px, one at least, twelve at most', () => {
    expect(firstPassCards(900)).toBe(6);
    expect(firstPassCards(1080)).toBe(8);
    expect(firstPassCards(200)).toBe(1);
    expect(firstPassCards(4000)).toBe(12);
  });

  it('lays out the cards of the first pass at once and lets the browser skip the others while off screen', async () => {
    const cards = Array.from({ length: 20 }, (_, index) => aCard({ id: `c${index}`, title: `Cliente ${index}` }));
    render(<CardList cards={cards} openCardId={null} onOpen={noop} onRename={noop} onMoveToFunnel={noop} />);
    await waitFor(() => expect(screen.getAllByTestId('board-card')).toHaveLength(20));
    const skipped = screen.getAllByTestId('board-card').map((card) => card.className.includes('[content-visibility:auto]'));
    const onScreen = firstPassCards(window.innerHeight);
    expect(skipped).toEqual(cards.map((_, index) => index >= onScreen));
  });

  it('marks media and group chats with drawn icons, never emoji a machine without an emoji font shows as boxes', () => {
    const cards = [
      aCard({ id: 'voice', lastMessageType: 'audio', lastMessageText: null }),
      aCard({ id: 'group', isGroup: true, title: 'Familia', lastMessageType: 'image', lastMessageText: null }),
    ];
    render(<CardList cards={cards} openCardId={null} onOpen={noop} onRename={noop} onMoveToFunnel={noop} />);
    const previews = screen.getAllByTestId('card-preview');
    expect(previews.map((preview) => preview.textContent)).toEqual(['Audio', 'Imagen']);
    expect(previews.every((preview) => preview.querySelector('svg'))).toBe(true);
    expect(screen.getByRole('img', { name: 'Grupo' }).querySelector('svg')).toBeTruthy();
    expect(screen.getByTestId('card-list').textContent).not.toMatch(/\p{Extended_Pictographic}/u);
  });

  it("shows a group id as it is beside the group icon, and a person's number as +phone", () => {
    const cards = [aCard({ id: 'person', phone: '5215512345678' }), aCard({ id: 'group', isGroup: true, title: 'Familia', phone: '120363025246125486' })];
    render(<CardList cards={cards} openCardId={null} onOpen={noop} onRename={noop} onMoveToFunnel={noop} />);
    const [person, group] = screen.getAllByTestId('contact-line');
    expect(person!.textContent).toBe('+5215512345678');
    expect(group!.textContent).toBe('120363025246125486');
    expect(group!.querySelector('[data-testid="group-icon"]')).toBeTruthy();
  });

  it('dates each card with its last activity, short date and time in Spanish', () => {
    const at = '2024-03-05T14:07:00.000Z';
    render(<CardList cards={[aCard({ lastActivityAt: at })]} openCardId={null} onOpen={noop} onRename={noop} onMoveToFunnel={noop} />);
    const expected = new Date(at).toLocaleString('es', { dateStyle: 'short', timeStyle: 'short' });
    expect(screen.getByTestId('board-card').textContent).toContain(expected);
  });
});
