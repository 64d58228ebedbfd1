/**
 * Realtime fan-out: BENCH_FANOUT_SOCKETS (500) socket.io clients of one company, spread over 10 funnels (one agent
 * per funnel, who sees only that funnel), while customers write in at BENCH_FANOUT_RATE (100) msg/s for
 * BENCH_FANOUT_SECONDS to chats spread over the funnels. Each message must reach every socket of its funnel; the
 * figure is p99 from posting the webhook to a socket receiving `message:new`, beside the same path with one socket
 * at 10 msg/s measured first in the same run.
 */
import { performance } from 'node:perf_hooks';
import { eq, sql } from 'drizzle-orm';
import { tenants } from '../apps/server/db/schema/index.ts';
import {
  companyOf,
  connectSocket,
  fmt,
  inboundText,
  knob,
  percentile,
  perSecond,
  phoneOf,
  registerCompany,
  ResultTable,
  sleep,
  startBenchApp,
  webhookPathOf,
  type BenchSocket,
  type Company,
} from './support.ts';

const SOCKETS = knob('BENCH_FANOUT_SOCKETS', 500);
const RATE = knob('BENCH_FANOUT_RATE', 100);
const SECONDS = knob('BENCH_FANOUT_SECONDS', 10);
const FUNNELS = 10;
const CHATS_PER_FUNNEL = 10;
const BASELINE_MESSAGES = 50;
const BASELINE_RATE = 10;

const bench = await startBenchApp();
const { base, database } = bench;
const owner = await registerCompany(base, 'fanout');
await database.db.update(tenants).set({ subscriptionPlan: 'enterprise' }).where(eq(tenants.id, owner.tenant.id));
for (let i = 1; i < FUNNELS; i++) await owner.send('POST', '/funnels', { name: `Embudo ${i + 1}` });
const funnels = (await owner.get<Array<{ id: string }>>('/funnels/summary')).slice(0, FUNNELS);

// One agent per funnel, who sees that funnel only.
const agents: Company[] = [];
for (const [index, funnel] of funnels.entries()) {
  const email = `agente${index}@${owner.slug}.test`;
  const { tempPassword } = await owner.send<{ tempPassword: string }>('POST', '/users/invite', {
    name: `Agente ${index}`,
    email,
    role: 'agent',
    funnelIds: [funnel.id],
  });
  const signIn = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: tempPassword, tenantSlug: owner.slug }),
  });
  if (!signIn.ok) throw new Error(`agent sign-in answered ${signIn.status}`);
  const signedIn = (await signIn.json()) as { token: string; user: unknown; tenant: { id: string; slug: string } };
  // An invited member sets a password of their own first; that answers the session's new token.
  const changed = await fetch(`${base}/api/auth/change-password`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${signedIn.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ newPassword: 'Agente12345' }),
  });
  if (!changed.ok) throw new Error(`password change answered ${changed.status}`);
  const { token } = (await changed.json()) as { token: string };
  agents.push(companyOf(base, owner.slug, { ...signedIn, token }));
}

// The customers' chats, CHATS_PER_FUNNEL in the first column of each funnel (seeded in SQL: the figure is the fan-out).
for (const [index, funnel] of funnels.entries()) {
  // A new funnel has no column yet.
  const [column] = (await owner.get<Array<{ id: string }>>(`/funnels/${funnel.id}/columns`)).concat(
    index === 0 ? [] : [await owner.send<{ id: string }>('POST', '/columns', { funnelId: funnel.id, title: 'Nuevos' })],
  );
  const first = index * CHATS_PER_FUNNEL;
  await database.db.execute(sql`
    insert into contacts (tenant_id, phone, name)
    select ${owner.tenant.id}, '52155' || lpad(g::text, 8, '0'), 'Cliente ' || g from generate_series(${first}::int, ${first + CHATS_PER_FUNNEL - 1}::int) g`);
  await database.db.execute(sql`
    insert into cards (tenant_id, funnel_id, column_id, contact_id, title, phone, last_activity_at, contact_last_message_at)
    select tenant_id, ${funnel.id}::uuid, ${column!.id}::uuid, id, name, phone, now(), now()
    from contacts where tenant_id = ${owner.tenant.id} and phone between ${phoneOf(first)} and ${phoneOf(first + CHATS_PER_FUNNEL - 1)}`);
}
const webhook = `${base}${await webhookPathOf(owner)}`;

/** Latencies (ms) of every `message:new` a socket received, by run; keyed by the message's text. */
const postedAt = new Map<string, number>();
let lastDeliveryAt = 0;
const listen = (socket: BenchSocket, into: number[]) =>
  socket.on('message:new', ({ message }) => {
    const posted = 'text' in message && message.text ? postedAt.get(message.text) : undefined;
    if (posted === undefined) return;
    lastDeliveryAt = performance.now();
    into.push(lastDeliveryAt - posted);
  });

/** Posts `total` messages at `rate`/s, open loop (a slow answer does not delay the next post); message i to chat i mod chats. */
async function writeIn(run: string, total: number, rate: number, chats: number) {
  const answers: Array<Promise<number>> = [];
  const started = performance.now();
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / rate;
    if (due > performance.now()) await sleep(due - performance.now());
    const text = `${run} ${i}`;
    const sentAt = performance.now();
    postedAt.set(text, sentAt);
    answers.push(
      fetch(webhook, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: inboundText(`wamid.${run}.${i}`, phoneOf(i % chats), text),
      }).then(async (answer) => {
        await answer.arrayBuffer();
        if (!answer.ok) throw new Error(`webhook answered ${answer.status}`);
        return performance.now() - sentAt;
      }),
    );
  }
  const postedIn = performance.now() - started;
  return { answerTimes: await Promise.all(answers), postRate: perSecond(total, postedIn) };
}

async function received(into: number[], expected: number, stallMs = 30_000) {
  let last = -1;
  let grewAt = performance.now();
  while (into.length < expected && performance.now() - grewAt < stallMs) {
    if (into.length > last) [last, grewAt] = [into.length, performance.now()];
    await sleep(100);
  }
}

// Baseline: one socket (the first funnel's agent), 10 msg/s to that funnel's chats.
const baseline: number[] = [];
const lone = await connectSocket(base, { token: agents[0]!.token, tenantSlug: owner.slug });
listen(lone, baseline);
await writeIn('baseline', BASELINE_MESSAGES, BASELINE_RATE, CHATS_PER_FUNNEL);
await received(baseline, BASELINE_MESSAGES);
lone.disconnect();

// The fan-out: SOCKETS sockets, SOCKETS / 10 per funnel.
const deliveries: number[] = [];
const connectStarted = performance.now();
const sockets: BenchSocket[] = [];
for (let i = 0; i < SOCKETS; i += 50) {
  const group = await Promise.all(
    Array.from({ length: Math.min(50, SOCKETS - i) }, (_, offset) =>
      connectSocket(base, { token: agents[(i + offset) % FUNNELS]!.token, tenantSlug: owner.slug }),
    ),
  );
  group.forEach((socket) => listen(socket, deliveries));
  sockets.push(...group);
}
const connectMs = performance.now() - connectStarted;
const total = RATE * SECONDS;
const fanoutStarted = performance.now();
const { answerTimes, postRate } = await writeIn('fanout', total, RATE, FUNNELS * CHATS_PER_FUNNEL);
const expected = total * (SOCKETS / FUNNELS);
await received(deliveries, expected);

const table = new ResultTable('fan-out', bench.databaseLabel);
table.add(`${SOCKETS} sockets of one company over ${FUNNELS} funnels joined`, `in ${fmt.ms(connectMs)}`);
table.add(`inbound messages posted (${SECONDS} s)`, `${total} at ${fmt.rate(postRate, 'msg/s')}`, `asked ${fmt.rate(RATE, 'msg/s')}`, postRate / RATE);
table.add('message:new received by the sockets of its funnel', `${deliveries.length} of ${expected}`, '', deliveries.length / expected);
table.add(
  'socket events delivered (first post to last event)',
  fmt.rate(perSecond(deliveries.length, lastDeliveryAt - fanoutStarted), 'events/s'),
  `asked ${fmt.rate((RATE * SOCKETS) / FUNNELS, 'events/s')}`,
  perSecond(deliveries.length, lastDeliveryAt - fanoutStarted) / ((RATE * SOCKETS) / FUNNELS),
);
table.add(
  'webhook → socket event p50 / p99',
  `${fmt.ms(percentile(deliveries, 50))} / ${fmt.ms(percentile(deliveries, 99))}`,
  `1 socket at ${BASELINE_RATE} msg/s: p99 ${fmt.ms(percentile(baseline, 99))}`,
  percentile(deliveries, 99) / percentile(baseline, 99),
);
table.add('webhook answer p99 during the fan-out', fmt.ms(percentile(answerTimes, 99)));
table.print();
sockets.forEach((socket) => socket.disconnect());
await bench.close();
