/**
 * The board open in a browser while a bulk send runs, without the browser: the web's own board realtime
 * (board-live.ts, with every payload checked by server-event.ts) fed by a real socket, the board and the funnel
 * list held in the web's TanStack Query client, whose reads go over HTTP and are counted. Prints the board and
 * summary requests per row of an N-row batch (BENCH_ROWS, 5,000 by default), from the upload until every row is
 * read plus the reload window. Figures only.
 */
import { performance } from 'node:perf_hooks';
import { QueryObserver } from '@tanstack/react-query';
import type { Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents } from '@embudo/contracts/realtime/events';
import { createQueryClient } from '../apps/web/src/app/query-client.ts';
import type { Board, FunnelSummary } from '../apps/web/src/features/board/board.api.ts';
import { createBoardLive, RELOAD_WINDOW_MS } from '../apps/web/src/features/board/board-live.ts';
import { boardKey, funnelsKey } from '../apps/web/src/features/board/board-queries.ts';
import { loadRealtimeClient, readServerEvent } from '../apps/web/src/shared/realtime-client/server-event.ts';
import { startBulkSendBench } from './bulk-send-fixture.ts';
import { knob, ResultTable, startWorkers } from './support.ts';

const ROWS = knob('BENCH_ROWS', 5000);
const DEADLINE_MS = knob('BENCH_DEADLINE_MIN', 40) * 60_000;

const bench = await startBulkSendBench({ runJobs: false, messagesPerSecond: knob('BENCH_RATE', 1000) });
const requests = { board: 0, summary: 0 };
const read = async <T>(path: string, counted: keyof typeof requests): Promise<T> => {
  requests[counted] += 1;
  const answer = await fetch(bench.company.api(path), { headers: bench.company.headers });
  if (!answer.ok) throw new Error(`${path}: ${answer.status}`);
  return answer.json() as Promise<T>;
};

// The board page's two queries, kept active as the mounted page keeps them.
const queryClient = createQueryClient();
const observers = [
  new QueryObserver<FunnelSummary[]>(queryClient, { queryKey: funnelsKey, queryFn: () => read('/funnels/summary', 'summary') }),
  new QueryObserver<Board>(queryClient, { queryKey: boardKey(bench.funnelId), queryFn: () => read(`/funnels/${bench.funnelId}/board`, 'board') }),
];
const unsubscribers = observers.map((observer) => observer.subscribe(() => undefined));
while (!queryClient.getQueryData(boardKey(bench.funnelId)) || !queryClient.getQueryData(funnelsKey)) await new Promise((resolve) => setTimeout(resolve, 20));
const live = createBoardLive(queryClient, () => ({ funnelId: bench.funnelId, openCardId: null }));

const credentials = { token: bench.company.token, tenantSlug: bench.company.slug };
// As the web's SocketProvider: the client and the events' contracts loaded first.
const io = await loadRealtimeClient();
const socket: Socket<ServerToClientEvents, ClientToServerEvents> = io(bench.base, { query: credentials, auth: credentials, transports: ['websocket'] });
// As the web's SocketProvider and useOnJoin do: join on every connect, and after each join read the board and the
// funnels again, for what was published before it (the board was read before the first; on PGlite the server shares
// this process, and a saturated event loop can drop the socket). The counts start after the first join's reads.
let joins = 0;
await new Promise<void>((resolve, reject) => {
  socket.on('connect', () =>
    socket.emit('join_tenant', credentials, (answer) => {
      if (!answer.ok) return reject(new Error(answer.message));
      joins += 1;
      live.joined();
      resolve();
    }),
  );
  socket.once('connect_error', reject);
});
const received = new Map<string, number>();
let refused = 0;
socket.onAny((event: string) => received.set(event, (received.get(event) ?? 0) + 1));
socket.on('card_updated', (payload) => {
  const checked = readServerEvent('card_updated', payload);
  if (checked) live.cardUpdated(checked);
  else refused += 1;
});
socket.on('board_updated', (payload) => {
  const checked = readServerEvent('board_updated', payload);
  if (checked) live.boardUpdated(checked);
  else refused += 1;
});
socket.on('funnels_updated', (payload) => {
  const checked = readServerEvent('funnels_updated', payload);
  if (checked) live.funnelsUpdated();
  else refused += 1;
});

const initial = { ...requests };
requests.board = 0;
requests.summary = 0;
const { id, started } = await bench.uploadBatch(ROWS);
startWorkers(bench.app);
let done = false;
while (!done && performance.now() - started < DEADLINE_MS) {
  // The bench's own polling, not counted; a poll lost while the server is saturated is simply taken again.
  const batch = await bench.batch(id).catch(() => undefined);
  done = Boolean(batch && batch.read_count + batch.failed_count >= ROWS);
  if (!done) await new Promise((resolve) => setTimeout(resolve, 1000));
}
const seconds = (performance.now() - started) / 1000;
// A reload asked for in the last window runs at its end: wait for it before counting.
await new Promise((resolve) => setTimeout(resolve, 2 * RELOAD_WINDOW_MS));

const cardsOnBoard = queryClient.getQueryData<Board>(boardKey(bench.funnelId))!.columns.reduce((sum, column) => sum + column.cards.length, 0);
const perRow = (count: number) => (count / ROWS).toFixed(4);
const table = new ResultTable('board-realtime', bench.databaseLabel);
table.add('rows', `${ROWS}${done ? '' : ' (deadline reached before every row was read)'} in ${seconds.toFixed(1)} s`);
table.add('events received', [...received].map(([event, count]) => `${event} ${count}`).join(', '));
table.add('payloads refused / reconnections', `${refused} / ${joins - 1}`);
table.add('cards on the cached board', String(cardsOnBoard));
table.add('initial load (board, summary)', `${initial.board}, ${initial.summary}`);
table.add('board + summary requests per row', (requests.board + requests.summary).toString(), `${ROWS} rows`, perRow(requests.board + requests.summary));
table.add('board requests per row', requests.board.toString(), `${ROWS} rows`, perRow(requests.board));
table.print();

live.dispose();
unsubscribers.forEach((unsubscribe) => unsubscribe());
socket.disconnect();
queryClient.clear();
await bench.close();
