import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json } from '../../test/fake-api.ts';
import { aTenant, aUser, storeSession } from '../../test/session-fixture.ts';
import { apiRequest } from '../../shared/api-client/api-client.ts';
import { preloadBoard } from './board-preload.ts';

const fetchMock = vi.fn<typeof fetch>();
const funnels = [
  { id: 'f1', name: 'Ventas', unreadCount: 0 },
  { id: 'f2', name: 'Soporte', unreadCount: 0 },
];

function answer(url: string) {
  if (url === '/t/acme/api/funnels/summary') return json(200, funnels);
  if (url.endsWith('/board')) return json(200, { funnel: { id: url.split('/')[5] } });
  return json(404, { code: 'NOT_FOUND' });
}

const requested = () => fetchMock.mock.calls.map(([url]) => String(url));
/** The board's reads have left: the funnels, then (once the funnels answered) the board. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  fetchMock.mockImplementation(async (url) => answer(String(url)));
});
afterEach(() => fetchMock.mockReset());

describe('preloadBoard', () => {
  it("on the board, reads the funnels and the first funnel's board, and the board's own calls take those answers", async () => {
    storeSession();
    preloadBoard('/t/acme');
    await settle();
    expect(requested()).toEqual(['/t/acme/api/funnels/summary', '/t/acme/api/funnels/f1/board']);

    await expect(apiRequest('/api/funnels/summary')).resolves.toEqual(funnels);
    await expect(apiRequest('/api/funnels/f1/board')).resolves.toEqual({ funnel: { id: 'f1' } });
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('reads the board of the funnel last chosen while it is still listed', async () => {
    storeSession();
    localStorage.setItem('board_funnel_id', 'f2');
    preloadBoard('/t/acme/');
    await settle();
    expect(requested()).toEqual(['/t/acme/api/funnels/summary', '/t/acme/api/funnels/f2/board']);
    await apiRequest('/api/funnels/summary');
    await apiRequest('/api/funnels/f2/board');
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

  it('reads no board when the funnels do not come', async () => {
    storeSession();
    fetchMock.mockImplementation(async () => json(500, { code: 'INTERNAL' }));
    preloadBoard('/t/acme');
    await settle();
    expect(requested()).toEqual(['/t/acme/api/funnels/summary']);
    await expect(apiRequest('/api/funnels/summary')).rejects.toMatchObject({ status: 500 });
  });
});

describe('preloadBoard once the page runs', () => {
  // Each test with fresh modules: whether the page runs is kept by the API client for the page's life.
  beforeEach(() => vi.resetModules());

  async function freshModules() {
    const client = await import('../../shared/api-client/api-client.ts');
    const preload = await import('./board-preload.ts');
    return { markPageRunning: client.markPageRunning, preloadBoard: preload.preloadBoard };
  }

  it("reads nothing when the app's own code ran first: the board reads for itself", async () => {
    const { markPageRunning, preloadBoard: preloadAfterTheApp } = await freshModules();
    storeSession();
    markPageRunning();
    preloadAfterTheApp('/t/acme');
    await settle();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("reads no board when the app's code started while the funnels were on their way: the app reads it (seedBoardQueries)", async () => {
    const { markPageRunning, preloadBoard: preloadBeforeTheApp } = await freshModules();
    storeSession();
    let answerFunnels: () => void = () => undefined;
    fetchMock.mockImplementation((url) => new Promise((resolve) => (answerFunnels = () => resolve(answer(String(url))))));
    preloadBeforeTheApp('/t/acme');
    markPageRunning();
    answerFunnels();
    await settle();
    expect(requested()).toEqual(['/t/acme/api/funnels/summary']);
  });
});
