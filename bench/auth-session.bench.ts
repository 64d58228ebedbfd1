/**
 * What a session check costs: `GET /api/auth/me` (session, member and company) beside the cheapest call that reads
 * the database, `GET /api/tenants/check-slug/{a free slug}` (one indexed read, no session), both in requests/s at the
 * same concurrency over HTTP, and sign-in (argon2id verify) latency. The same route answered before any query
 * (`check-slug/x`, too short a slug) is printed too: what HTTP alone costs. Knobs: BENCH_AUTH_REQUESTS,
 * BENCH_AUTH_CONCURRENCY.
 */
import {
  CHECK_SLUG_LABEL,
  checkSlugUrl,
  fmt,
  noQueryUrl,
  knob,
  percentile,
  registerCompany,
  requestRate,
  ResultTable,
  startBenchApp,
  load,
} from './support.ts';

const REQUESTS = knob('BENCH_AUTH_REQUESTS', 2000);
const CONCURRENCY = knob('BENCH_AUTH_CONCURRENCY', 8);
const SIGN_INS = knob('BENCH_AUTH_SIGN_INS', 30);

const bench = await startBenchApp();
const company = await registerCompany(bench.base, 'auth');
// Warm-up: the first requests compile routes and fill caches.
await requestRate(checkSlugUrl(bench.base), 100, CONCURRENCY);
await requestRate(`${bench.base}/api/auth/me`, 100, CONCURRENCY, company.headers);

await requestRate(noQueryUrl(bench.base), 100, CONCURRENCY);
const noQuery = await requestRate(noQueryUrl(bench.base), REQUESTS, CONCURRENCY);
const checkSlug = await requestRate(checkSlugUrl(bench.base), REQUESTS, CONCURRENCY);
const me = await requestRate(`${bench.base}/api/auth/me`, REQUESTS, CONCURRENCY, company.headers);
const signIns = await load({
  total: SIGN_INS,
  concurrency: 1,
  request: (_, signal) =>
    fetch(`${bench.base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: `owner@${company.slug}.test`, password: 'Bench12345', tenantSlug: company.slug }),
      signal,
    }),
});
if (signIns.ok !== SIGN_INS) throw new Error('sign-in failed');

const table = new ResultTable('auth', bench.databaseLabel);
const baseline = `check-slug ${fmt.rate(checkSlug.perSecond, 'req/s')}`;
table.add(`GET /api/tenants/check-slug/x (no query: HTTP alone), c = ${CONCURRENCY}`, fmt.rate(noQuery.perSecond, 'req/s'));
table.add(`${CHECK_SLUG_LABEL}, c = ${CONCURRENCY}`, fmt.rate(checkSlug.perSecond, 'req/s'));
table.add(`GET /api/auth/me, c = ${CONCURRENCY}`, fmt.rate(me.perSecond, 'req/s'), baseline, me.perSecond / checkSlug.perSecond);
table.add(
  `GET /api/auth/me p95, c = ${CONCURRENCY}`,
  fmt.ms(percentile(me.result.latencies, 95)),
  `check-slug p95 ${fmt.ms(percentile(checkSlug.result.latencies, 95))}`,
  percentile(me.result.latencies, 95) / percentile(checkSlug.result.latencies, 95),
);
table.add('POST /api/auth/login p50 (argon2id), one at a time', fmt.ms(percentile(signIns.latencies, 50)));
table.print();
await bench.close();
