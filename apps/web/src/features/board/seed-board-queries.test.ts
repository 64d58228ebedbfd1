import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../app/query-client.ts';
import { apiRequest, configureApiClient, requestEarly } from '../../shared/api-client/api-client.ts';
import { json } from '../../test/fake-api.ts';
import { storeSession } from '../../test/session-fixture.ts';
import { boardKey, funnelsKey } from './board-queries.ts';
import { seedBoardQueries } from './seed-board-queries.ts';

const fetchMock = vi.fn<typeof fetch>();
const funnels = [{ id: 'f1', name: 'Ventas', unreadCount: 0 }];
const board = { funnel: { id: 'f1', name: 'Ventas' }, columns: [] };
let answers: Record<string, () => Response> = {};

beforeEach(() => {
  answers = {
    '/t/acme/api/funnels/summary': () => json(200, funnels),
    '/t/acme/api/funnels/f1/board': () => json(200, board),
  };
  storeSession();
  vi.stubGlobal('fetch', fetchMock);
  fetchMock.mockImplementation(async (url) => answers[String(url)]?.() ?? json(404, {}));
  configureApiClient({ navigate: () => undefined });
});
afterEach(() => fetchMock.mockReset());

describe('seedBoardQueries', () => {
  it("puts the board's early answers in the query cache, without asking again", async () => {
    void requestEarly('/api/funnels/summary');
    void requestEarly('/api/funnels/f1/board');
    const queryClient = createQueryClient();
    await seedBoardQueries(queryClient);
    expect(queryClient.getQueryData(funnelsKey)).toEqual(funnels);
    expect(queryClient.getQueryData(boardKey('f1'))).toEqual(board);
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it("starts the board's read itself when only the funnels came early (the app ran before their answer), and seeds it", async () => {
    void requestEarly('/api/funnels/summary');
    const queryClient = createQueryClient();
    await seedBoardQueries(queryClient);
    expect(queryClient.getQueryData(boardKey('f1'))).toEqual(board);
    expect(fetchMock.mock.calls.map(([url]) => String(url))).toEqual(['/t/acme/api/funnels/summary', '/t/acme/api/funnels/f1/board']);
  });

  it('asks for nothing when no early answer was started (another page, or no session)', async () => {
    const queryClient = createQueryClient();
    await seedBoardQueries(queryClient);
    expect(fetchMock).not.toHaveBeenCalled();
    expect(queryClient.getQueryData(funnelsKey)).toBeUndefined();
  });

  it("leaves an answer that is not OK to the board's own call, which handles it", async () => {
    answers['/t/acme/api/funnels/summary'] = () => json(401, { code: 'UNAUTHORIZED', message: 'Sesión inválida' });
    void requestEarly('/api/funnels/summary');
    const queryClient = createQueryClient();
    await seedBoardQueries(queryClient);
    expect(queryClient.getQueryState(funnelsKey)).toBeUndefined();
    // Still signed in until the board's call takes the 401.
    expect(localStorage.getItem('auth_token')).toBe('stored-token');
    await expect(apiRequest('/api/funnels/summary')).rejects.toMatchObject({ status: 401 });
    expect(localStorage.getItem('auth_token')).toBeNull();
    expect(fetchMock).toHaveBeenCalledOnce();
  });
});
