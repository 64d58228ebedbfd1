#!/usr/bin/env node
/* global fetch, performance, setTimeout, clearTimeout */
// CI's check of the production build (issue 17), run after `npm test` built everything:
//  1. a fresh copy of the repository with the build, `npm ci --omit=dev` (no tsx, no dev tooling), the built server
//     started with node on the embedded database: /readyz answers, the web app is served, SIGTERM exits 0;
//  2. with --server-mode (PostgreSQL and Redis on 127.0.0.1): two such processes on one new database and Redis
//     behind a small round-robin proxy that passes websocket upgrades, as compose.yaml runs them behind Caddy, and a
//     smoke run of the main journeys' API calls through it (register, login, board, socket join, webhook in → realtime
//     event, send → provider accepted), then SIGTERM to both.
// What a container engine would add (the image build, its HEALTHCHECK, Caddy itself) is not run here: see README.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const serverMode = process.argv.includes('--server-mode');
const started = performance.now();
const children = new Set();
const log = (line) => process.stdout.write(`   ${line}\n`);
const seconds = (since) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

function fail(message) {
  process.stderr.write(`production check FAILED: ${message}\n`);
  for (const child of children) child.kill('SIGKILL');
  process.exit(1);
}

// ---- 1. A fresh copy with the build, production dependencies only ----
const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'embudo-prod-'));
process.on('exit', () => fs.rmSync(copy, { recursive: true, force: true }));
const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], { cwd: root }).toString().split('\0').filter(Boolean);
for (const file of files) {
  if (!fs.existsSync(path.join(root, file))) continue;
  fs.mkdirSync(path.dirname(path.join(copy, file)), { recursive: true });
  fs.copyFileSync(path.join(root, file), path.join(copy, file));
}
for (const built of ['packages/contracts/dist', 'apps/server/dist', 'apps/web/dist']) {
  if (!fs.existsSync(path.join(root, built))) fail(`${built} is missing: run npm run build first`);
  fs.cpSync(path.join(root, built), path.join(copy, built), { recursive: true });
}
const install = performance.now();
const ci = spawnSync('npm', ['ci', '--omit=dev', '--no-audit', '--no-fund'], { cwd: copy, encoding: 'utf8' });
if (ci.status !== 0) fail(`npm ci --omit=dev: ${ci.stderr}`);
log(`npm ci --omit=dev in a fresh copy: ${seconds(install)}`);
for (const devTool of ['tsx', 'vitest', 'eslint', 'drizzle-kit', '@playwright/test']) {
  if (fs.existsSync(path.join(copy, 'node_modules', devTool))) fail(`${devTool} was installed without dev dependencies`);
}

/** Starts the built server from the copy; resolves with its URL once it prints it. */
function startServer(env) {
  const child = spawn(process.execPath, ['--conditions=embudo-dist', 'dist/src/main.js'], {
    cwd: path.join(copy, 'apps/server'),
    env: { PATH: process.env.PATH, HOME: process.env.HOME, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'warn', ...env },
  });
  children.add(child);
  const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  let out = '';
  child.stderr.on('data', (chunk) => (out += chunk));
  const url = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start within 60 s: ${out}`)), 60_000);
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = /running at (http:\/\/localhost:(\d+)) .*started in ([\d.]+) s/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve({ url: `http://127.0.0.1:${match[2]}`, startedIn: match[3] });
      }
    });
    void exited.then((code) => reject(new Error(`exited with ${code}: ${out}`)));
  });
  return {
    ready: url,
    stop: async () => {
      child.kill('SIGTERM');
      const code = await exited;
      children.delete(child);
      if (code !== 0) fail(`the server exited with ${code} after SIGTERM: ${out}`);
    },
  };
}

async function expectStatus(url, status, init) {
  const response = await fetch(url, init);
  if (response.status !== status) fail(`${init?.method ?? 'GET'} ${url} answered ${response.status}, not ${status}: ${await response.text()}`);
  return response;
}

const embeddedDir = path.join(copy, 'data');
const embedded = startServer({ DATA_DIR: embeddedDir });
const { url: embeddedUrl, startedIn } = await embedded.ready.catch((error) => fail(`embedded start: ${error.message}`));
log(`built server on the embedded database: started in ${startedIn} s`);
const readiness = await (await expectStatus(`${embeddedUrl}/readyz`, 200)).json();
if (readiness.status !== 'ready') fail(`/readyz: ${JSON.stringify(readiness)}`);
const page = await (await expectStatus(`${embeddedUrl}/login`, 200)).text();
if (!page.includes('<div id="root">')) fail('the web app is not served');
await embedded.stop();
log('/readyz 200, web app served, SIGTERM → exit 0');

if (!serverMode) {
  log(`production check passed in ${seconds(started)} (server mode not run: no --server-mode)`);
  process.exit(0);
}

// ---- 2. Server mode: two processes behind a proxy on PostgreSQL + Redis ----
const { default: pg } = await import('pg');
const { io } = await import('socket.io-client');
const postgresUrl = process.env.SMOKE_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const redisUrl = process.env.SMOKE_REDIS_URL ?? 'redis://127.0.0.1:6379';
const database = `embudo_smoke_${randomBytes(5).toString('hex')}`;
const admin = new pg.Client({ connectionString: postgresUrl });
await admin.connect();
await admin.query(`create database ${database}`);
await admin.end();
const databaseUrl = Object.assign(new URL(postgresUrl), { pathname: `/${database}` }).toString();
async function dropDatabase() {
  const dropper = new pg.Client({ connectionString: postgresUrl });
  await dropper.connect();
  await dropper.query(`drop database if exists ${database} with (force)`);
  await dropper.end();
}

const shared = {
  DATABASE_URL: databaseUrl,
  REDIS_URL: redisUrl,
  APP_SECRET: randomBytes(24).toString('hex'),
  PROVIDER_MODE: 'sandbox',
  SEED_DEMO: 'false',
  ADMIN_EMAIL: 'operador@embudo.test',
  ADMIN_PASSWORD: 'Operador123',
  TRUST_PROXY: '1',
};
const serverStart = performance.now();
const replicas = [startServer({ ...shared, DATA_DIR: path.join(copy, 'one') }), startServer({ ...shared, DATA_DIR: path.join(copy, 'two') })];
const backends = [];
for (const replica of replicas) backends.push(new URL((await replica.ready.catch((error) => fail(`server-mode start: ${error.message}`))).url));
log(`two built processes on PostgreSQL + Redis: ${seconds(serverStart)}`);

// The proxy: requests round-robin over both processes (so consecutive API calls land on different ones), websocket
// upgrades piped through, X-Forwarded-For added as a reverse proxy does.
let turn = 0;
const hits = [0, 0];
const pick = () => {
  const index = turn++ % backends.length;
  hits[index] += 1;
  return backends[index];
};
const proxy = http.createServer((request, response) => {
  const target = pick();
  const upstream = http.request(
    {
      host: target.hostname,
      port: target.port,
      method: request.method,
      path: request.url,
      headers: { ...request.headers, 'x-forwarded-for': request.socket.remoteAddress },
    },
    (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    },
  );
  upstream.on('error', () => response.writeHead(502).end());
  request.pipe(upstream);
});
proxy.on('upgrade', (request, socket, head) => {
  const target = pick();
  const upstream = net.connect(Number(target.port), target.hostname, () => {
    const lines = [`${request.method} ${request.url} HTTP/1.1`, ...Object.entries(request.headers).map(([key, value]) => `${key}: ${value}`), '', ''];
    upstream.write(lines.join('\r\n'));
    if (head.length > 0) upstream.write(head);
    upstream.pipe(socket);
    socket.pipe(upstream);
  });
  upstream.on('error', () => socket.destroy());
  socket.on('error', () => upstream.destroy());
});
await new Promise((resolve) => proxy.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${proxy.address().port}`;

const smoke = performance.now();
const json = async (route, init = {}, status = 200) => (await expectStatus(`${base}${route}`, status, init)).json();
const withToken = (token, init = {}) => ({ ...init, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...init.headers } });
const slug = `humo-${randomBytes(3).toString('hex')}`;
const registration = {
  companyName: 'Prueba de Humo',
  companySlug: slug,
  userName: 'Humo Dueño',
  userEmail: `owner@${slug}.test`,
  userPassword: 'Secreto123',
};
await json('/api/auth/register', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(registration) }, 201);
const { token } = await json('/api/auth/login', {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ email: registration.userEmail, password: registration.userPassword, tenantSlug: slug }),
});
const [funnel] = await json('/api/funnels/summary', withToken(token));
const board = await json(`/api/funnels/${funnel.id}/board`, withToken(token));
if (!Array.isArray(board.columns) || board.columns.length === 0) fail(`the board has no columns: ${JSON.stringify(board).slice(0, 200)}`);

const socket = io(base, { transports: ['websocket'], query: { token, tenantSlug: slug }, reconnection: false, forceNew: true });
const joined = await new Promise((resolve, reject) => {
  const timer = setTimeout(() => reject(new Error('no socket join within 10 s')), 10_000);
  socket.once('connect', () => socket.emit('join_tenant', { token, tenantSlug: slug }, (answer) => (clearTimeout(timer), resolve(answer))));
  socket.once('connect_error', (error) => (clearTimeout(timer), reject(error)));
}).catch((error) => fail(`socket through the proxy: ${error.message}`));
if (!joined?.ok) fail(`join_tenant: ${JSON.stringify(joined)}`);
const newMessage = new Promise((resolve, reject) => {
  const timer = setTimeout(() => reject(new Error('no message:new within 10 s')), 10_000);
  socket.on('message:new', (payload) => {
    if (payload?.message?.sender !== 'contact') return;
    clearTimeout(timer);
    resolve(payload);
  });
});

const settings = await json('/api/gupshup/settings', withToken(token));
const webhook = new URL(settings.webhookUrl).pathname;
const delivery = {
  app: settings.appName,
  timestamp: Date.now(),
  version: 2,
  type: 'message',
  payload: {
    id: `wamid.${randomUUID()}`,
    source: '5215512345678',
    type: 'text',
    payload: { text: 'Hola, ¿abren hoy?' },
    sender: { phone: '5215512345678', name: 'Ana' },
  },
};
await expectStatus(`${base}${webhook}`, 200, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(delivery) });
const { cardId } = await newMessage.catch((error) => fail(`realtime across processes: ${error.message}`));
const sent = await json('/api/message', withToken(token, { method: 'POST', body: JSON.stringify({ cardId, text: 'Sí, hasta las 8' }) }), 201);
const deadline = Date.now() + 15_000;
for (;;) {
  const { messages } = await json(`/api/cards/${cardId}/messages`, withToken(token));
  if (messages.find((message) => message.id === sent.id && message.ack >= 1)) break;
  if (Date.now() > deadline) fail('the reply was not accepted by the provider within 15 s');
  await new Promise((resolve) => setTimeout(resolve, 200));
}
socket.disconnect();
for (const backend of backends) {
  const ready = await (await expectStatus(`${backend.origin}/readyz`, 200)).json();
  if (!ready.checks.redis?.ok || !ready.checks.queue?.ok) fail(`readiness of ${backend.origin}: ${JSON.stringify(ready)}`);
}
if (hits.some((count) => count === 0)) fail(`the proxy used one process only: ${hits}`);
log(
  `smoke through the proxy (register, login, board, socket join, webhook in → realtime, send → accepted): ${seconds(smoke)}; requests per process ${hits.join('/')}`,
);

await Promise.all(replicas.map((replica) => replica.stop()));
proxy.close();
await dropDatabase();
log(`both processes stopped on SIGTERM with exit 0; production check passed in ${seconds(started)}`);
process.exit(0);
