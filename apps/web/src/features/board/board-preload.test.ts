import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json } from '../../test/fake-api.ts';
import { aTenant, aUser, storeSession } from '../../test/session-fixture.ts';
import { apiRequest } from '../../shared/api-client/api-client.ts';
import { preloadBoard } from './board-preload.ts';

const fetchMock = vi.fn<typeof fetch>();
const shown = { funnels: [{ id: 'f1', name: 'Ventas', unreadCount: 0 }], board: { funnel: { id: 'f1', name: 'Ventas' } } };

const requested = () => fetchMock.mock.calls.map(([url]) => String(url));
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  fetchMock.mockImplementation(async () => json(200, shown));
});
afterEach(() => fetchMock.mockReset());

describe('preloadBoard', () => {
  it("on the board, reads the funnels and the shown board in one call, whose answer the board's call takes", async () => {
    storeSession();
    preloadBoard('/t/acme');
    await settle();
    expect(requested()).toEqual(['/t/acme/api/funnels/shown-board']);

    await expect(apiRequest('/api/funnels/shown-board')).resolves.toEqual(shown);
    expect(fetchMock).toHaveBeenCalledOnce();
  });

  it('names the funnel last chosen, for the server to show while it is still listed', async () => {
    storeSession();
    localStorage.setItem('board_funnel_id', 'f2');
    preloadBoard('/t/acme/');
    await settle();
    expect(requested()).toEqual(['/t/acme/api/funnels/shown-board?selected=f2']);
    await apiRequest('/api/funnels/shown-board?selected=f2');
  });

  it.each([
    ['another page', '/t/acme/agenda', () => storeSession()],
    ['the landing', '/', () => storeSession()],
    ["another company's board", '/t/otra', () => storeSession()],
    ['no stored session', '/t/acme', () => undefined],
    ['a temporary password to replace', '/t/acme', () => storeSession(aUser({ force_password_change: true }), aTenant())],
  ])('reads nothing on %s', async (_case, path, store) => {
    store();
    preloadBoard(path);
    await settle();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
