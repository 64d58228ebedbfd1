import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../app/query-client.ts';
import { configureApiClient, requestEarly } from '../../shared/api-client/api-client.ts';
import { json } from '../../test/fake-api.ts';
import { storeSession } from '../../test/session-fixture.ts';
import { boardKey, funnelsKey, funnelsQuery } from './board-queries.ts';
import { seedBoardQueries } from './seed-board-queries.ts';

const fetchMock = vi.fn<typeof fetch>();
const funnels = [
  { id: 'f1', name: 'Ventas', unreadCount: 0 },
  { id: 'f2', name: 'Soporte', unreadCount: 0 },
];
const board = { funnel: { id: 'f2', name: 'Soporte' }, columns: [] };
let answers: Record<string, () => Response> = {};
const navigate = vi.fn();

beforeEach(() => {
  answers = {
    '/t/acme/api/funnels/shown-board?selected=f2': () => json(200, { funnels, board }),
    '/t/acme/api/funnels/summary': () => json(200, funnels),
  };
  storeSession();
  localStorage.setItem('board_funnel_id', 'f2');
  vi.stubGlobal('fetch', fetchMock);
  fetchMock.mockImplementation(async (url) => answers[String(url)]?.() ?? json(404, {}));
  configureApiClient({ navigate });
});
afterEach(() => {
  fetchMock.mockReset();
  navigate.mockReset();
});

const requested = () => fetchMock.mock.calls.map(([url]) => String(url));

describe('seedBoardQueries', () => {
  it("puts the early answer's funnels and board in the query cache, without asking again", async () => {
    void requestEarly('/api/funnels/shown-board?selected=f2');
    const queryClient = createQueryClient();
    await seedBoardQueries(queryClient);
    expect(queryClient.getQueryData(funnelsKey)).toEqual(funnels);
    expect(queryClient.getQueryData(boardKey('f2'))).toEqual(board);
    expect(requested()).toEqual(['/t/acme/api/funnels/shown-board?selected=f2']);
  });

  it('has the funnels in flight at once: a board mounting before the answer waits on it instead of asking', async () => {
    let answer: () => void = () => undefined;
    fetchMock.mockImplementation((url) => new Promise((resolve) => (answer = () => resolve(answers[String(url)]!()))));
    void requestEarly('/api/funnels/shown-board?selected=f2');
    const queryClient = createQueryClient();
    const seeded = seedBoardQueries(queryClient);
    const boardsOwnRead = queryClient.fetchQuery(funnelsQuery());
    answer();
    await expect(boardsOwnRead).resolves.toEqual(funnels);
    await seeded;
    expect(queryClient.getQueryData(boardKey('f2'))).toEqual(board);
    expect(fetchMock).toHaveBeenCalledOnce();
  });

  it('seeds no board when the member sees no funnel', async () => {
    answers['/t/acme/api/funnels/shown-board?selected=f2'] = () => json(200, { funnels: [], board: null });
    void requestEarly('/api/funnels/shown-board?selected=f2');
    const queryClient = createQueryClient();
    await seedBoardQueries(queryClient);
    expect(queryClient.getQueryData(funnelsKey)).toEqual([]);
    expect(queryClient.getQueryCache().findAll({ queryKey: ['board'] })).toEqual([]);
  });

  it('asks for nothing when no early read was started (another page, or no stored session)', async () => {
    const queryClient = createQueryClient();
    await seedBoardQueries(queryClient);
    expect(fetchMock).not.toHaveBeenCalled();
    expect(queryClient.getQueryData(funnelsKey)).toBeUndefined();
  });

  it("reads the funnels on its own when the early read failed, as the board's own call would", async () => {
    answers['/t/acme/api/funnels/shown-board?selected=f2'] = () => json(500, { code: 'INTERNAL', message: 'Error' });
    void requestEarly('/api/funnels/shown-board?selected=f2');
    const queryClient = createQueryClient();
    await seedBoardQueries(queryClient);
    expect(queryClient.getQueryData(funnelsKey)).toEqual(funnels);
    expect(requested()).toEqual(['/t/acme/api/funnels/shown-board?selected=f2', '/t/acme/api/funnels/summary']);
  });

  it('signs out when the session was refused, through the same call', async () => {
    answers['/t/acme/api/funnels/shown-board?selected=f2'] = () => json(401, { code: 'UNAUTHORIZED', message: 'Sesión inválida' });
    answers['/t/acme/api/funnels/summary'] = () => json(401, { code: 'UNAUTHORIZED', message: 'Sesión inválida' });
    void requestEarly('/api/funnels/shown-board?selected=f2');
    const queryClient = createQueryClient();
    await seedBoardQueries(queryClient);
    expect(queryClient.getQueryState(funnelsKey)?.status).toBe('error');
    expect(localStorage.getItem('auth_token')).toBeNull();
  });
});
