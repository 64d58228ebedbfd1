/**
 * Seeds one funnel with 10,000 chats (5,000 of them in its first column) and prints the board
 * call's median and p99 over HTTP, then the board's time to first paint in Chromium, with how
 * many cards the browser actually holds (the long columns are virtualised). Figures only;
 * nothing here asserts a time. Needs the built web app (`npm run build`) for the browser part.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { chromium } from '@playwright/test';
import { openPglite, openPostgres } from '../apps/server/src/platform/db/database.ts';
import { createLogger } from '../apps/server/src/platform/logger/logger.ts';
import { buildApp } from '../apps/server/src/app.ts';

const CARDS = Number(process.env.BENCH_CARDS ?? 10_000);
const BOARD_CALLS = Number(process.env.BENCH_BOARD_CALLS ?? 40);
const PAGE_LOADS = Number(process.env.BENCH_PAGE_LOADS ?? 5);
const webDist = path.resolve(import.meta.dirname, '../apps/web/dist');

const database = process.env.DATABASE_URL ? await openPostgres(process.env.DATABASE_URL) : await openPglite(undefined);
const app = await buildApp({
  db: database.db,
  logger: createLogger('silent'),
  mediaDir: os.tmpdir(),
  appSecret: 'bench-and-test-secret-0123456789abcdef',
  providerMode: 'sandbox',
  webDist,
});
await app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

const slug = `board-${Date.now()}`;
const session = (await (
  await fetch(`${base}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ companyName: 'Bench Board', companySlug: slug, userName: 'Bench', userEmail: 'bench@board.test', userPassword: 'Bench12345' }),
  })
).json()) as { token: string; user: unknown; tenant: { id: string; slug: string } };
const headers = { authorization: `Bearer ${session.token}` };
const [funnel] = (await (await fetch(`${base}/t/${slug}/api/funnels/summary`, { headers })).json()) as Array<{ id: string }>;
const columns = (await (await fetch(`${base}/t/${slug}/api/funnels/${funnel!.id}/columns`, { headers })).json()) as Array<{ id: string }>;

// Seeded in SQL: the figure under study is reading the board, not the inbound pipeline.
const seedStarted = performance.now();
const tenantId = session.tenant.id;
await database.db.execute(sql`
  insert into contacts (tenant_id, phone, name)
  select ${tenantId}, '5215' || lpad(g::text, 9, '0'), 'Cliente ' || g from generate_series(1, ${CARDS}) g`);
await database.db.execute(sql`
  insert into cards (tenant_id, funnel_id, column_id, contact_id, title, phone, is_group, unread_count, last_message_type, last_message_text, last_activity_at, contact_last_message_at)
  select c.tenant_id, ${funnel!.id}::uuid,
    (case when n <= ${CARDS / 2} then ${columns[0]!.id}::uuid when n % 3 = 0 then ${columns[1]!.id}::uuid when n % 3 = 1 then ${columns[2]!.id}::uuid else ${columns[3]!.id}::uuid end),
    c.id, c.name, c.phone, n % 20 = 0, n % 4, 'text', 'Hola, quisiera información sobre el pedido número ' || n,
    now() - (n || ' seconds')::interval, now() - (n || ' seconds')::interval
  from (select contacts.*, row_number() over (order by phone) as n from contacts where tenant_id = ${tenantId}) c`);
const seedMs = performance.now() - seedStarted;

const boardUrl = `${base}/t/${slug}/api/funnels/${funnel!.id}/board`;
const samples: number[] = [];
let bytes = 0;
for (let i = 0; i < BOARD_CALLS; i++) {
  const started = performance.now();
  const response = await fetch(boardUrl, { headers });
  const body = await response.text();
  samples.push(performance.now() - started);
  if (response.status !== 200) throw new Error(`board answered ${response.status}`);
  bytes = body.length;
}
samples.sort((a, b) => a - b);
const percentile = (values: number[], p: number) => values[Math.min(values.length - 1, Math.ceil((p / 100) * values.length) - 1)]!;

process.stdout.write(`database                   ${database.kind}\n`);
process.stdout.write(`cards seeded               ${CARDS} in one funnel (${CARDS / 2} in its first column) in ${seedMs.toFixed(0)} ms\n`);
process.stdout.write(
  `GET board                  runs=${BOARD_CALLS} p50=${percentile(samples, 50).toFixed(1)}ms p99=${percentile(samples, 99).toFixed(1)}ms answer=${(bytes / 1024).toFixed(0)} KiB\n`,
);

if (!fs.existsSync(path.join(webDist, 'index.html'))) {
  process.stdout.write('board first paint          skipped: build the web app first (npm run build)\n');
} else {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const paints: number[] = [];
  let cardsInDom = 0;
  for (let i = 0; i < PAGE_LOADS; i++) {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    // Signed in as a returning user is: the stored session, then the board.
    await context.addInitScript(
      ({ token, user, tenant }) => {
        localStorage.setItem('auth_token', token);
        localStorage.setItem('auth_user', JSON.stringify(user));
        localStorage.setItem('auth_tenant', JSON.stringify(tenant));
        // The first frame painted after a card exists, in ms since navigation started.
        const observer = new MutationObserver(() => {
          if (!document.querySelector('[data-testid="board-card"]')) return;
          observer.disconnect();
          requestAnimationFrame(() => requestAnimationFrame(() => ((window as unknown as { boardPaintedAt: number }).boardPaintedAt = performance.now())));
        });
        observer.observe(document, { childList: true, subtree: true });
      },
      { token: session.token, user: session.user, tenant: session.tenant },
    );
    const page = await context.newPage();
    await page.goto(`${base}/t/${slug}`);
    await page.waitForFunction(() => (window as unknown as { boardPaintedAt?: number }).boardPaintedAt !== undefined, undefined, { timeout: 120_000 });
    paints.push(await page.evaluate(() => (window as unknown as { boardPaintedAt: number }).boardPaintedAt));
    cardsInDom = await page.locator('[data-testid="board-card"]').count();
    await context.close();
  }
  await browser.close();
  paints.sort((a, b) => a - b);
  process.stdout.write(
    `board first paint          loads=${PAGE_LOADS} p50=${percentile(paints, 50).toFixed(0)}ms max=${percentile(paints, 100).toFixed(0)}ms (navigation start to first painted card, Chromium)\n`,
  );
  process.stdout.write(`cards in the page          ${cardsInDom} of ${CARDS} (long columns render what is on screen)\n`);
}

await app.close();
await database.close();
