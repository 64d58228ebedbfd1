import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { io } from 'socket.io-client';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TEST_APP_SECRET } from '../../../test/support/build-test-app.ts';
import { createTestDatabase } from '../../../test/support/test-database.ts';
import { buildApp, type App } from '../../app.ts';
import { createLogger } from '../logger/logger.ts';
import { registerTenant } from '../../../test/support/factories.ts';
import { listenOnRandomPort } from '../../../test/support/realtime-client.ts';
import { z } from 'zod';
import { defineJob } from '../queue/job-definition.ts';
import { exitGracefullyOnSignals } from './shutdown.ts';

const silent = { info: () => {}, warn: () => {}, error: () => {} };
const uninstall: Array<() => void> = [];
afterEach(() => uninstall.splice(0).forEach((remove) => remove()));

/** SIGUSR2 stands in for SIGTERM: emitted on this very process, it reaches only the listeners under test. */
function install(close: () => Promise<void>, timeoutMs = 1_000) {
  const exits: Array<{ code: number; atMs: number }> = [];
  const started = performance.now();
  uninstall.push(
    exitGracefullyOnSignals({
      close,
      timeoutMs,
      logger: silent,
      signals: ['SIGUSR2'],
      exit: (code) => void exits.push({ code, atMs: performance.now() - started }),
    }),
  );
  return exits;
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('exit on SIGTERM', () => {
  it('closes the app and exits 0', async () => {
    let closed = false;
    const exits = install(async () => {
      await wait(20);
      closed = true;
    });
    process.emit('SIGUSR2', 'SIGUSR2');
    await wait(100);
    expect(closed).toBe(true);
    expect(exits.map((exit) => exit.code)).toEqual([0]);
  });

  it('exits 1 at the deadline when closing takes longer', async () => {
    const exits = install(() => new Promise(() => {}), 200);
    process.emit('SIGUSR2', 'SIGUSR2');
    await wait(400);
    expect(exits.map((exit) => exit.code)).toEqual([1]);
    expect(exits[0]!.atMs).toBeGreaterThanOrEqual(190);
  });

  it('exits 1 at once on a second signal', async () => {
    const exits = install(() => new Promise(() => {}), 10_000);
    process.emit('SIGUSR2', 'SIGUSR2');
    process.emit('SIGUSR2', 'SIGUSR2');
    expect(exits.map((exit) => exit.code)).toEqual([1]);
  });
});

describe('closing the app', () => {
  let app: App;
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let slowRequestArrived = () => {};
  const mediaDir = fs.mkdtempSync(path.join(os.tmpdir(), 'embudo-close-'));
  beforeAll(async () => {
    database = await createTestDatabase();
    app = await buildApp({ db: database.db, logger: createLogger('silent'), mediaDir, appSecret: TEST_APP_SECRET });
    // A slow request under way when the shutdown starts still gets its answer.
    app.get('/slow-test-route', async () => {
      slowRequestArrived();
      await wait(300);
      return { done: true };
    });
  });
  afterAll(async () => {
    await database.close();
    fs.rmSync(mediaDir, { recursive: true, force: true });
  });

  it('cuts the sockets so that their clients reconnect (not a server disconnect), and finishes a request in flight', async () => {
    const url = await listenOnRandomPort(app);
    const owner = await registerTenant(app);
    const socket = io(url, { query: { token: owner.token, tenantSlug: owner.tenant.slug }, transports: ['websocket'], reconnection: true, forceNew: true });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    const reason = new Promise<string>((resolve) => socket.once('disconnect', resolve));
    const arrived = new Promise<void>((resolve) => (slowRequestArrived = resolve));
    const slow = fetch(`${url}/slow-test-route`).then(async (response) => ({ status: response.status, body: (await response.json()) as unknown }));
    // The shutdown starts once the request is under way (on a busy machine it may take more than a moment to arrive).
    await arrived;
    const closing = app.close();
    expect(await reason).toBe('transport close');
    // socket.io-client keeps trying after a transport close, never after an "io server disconnect".
    expect(socket.active).toBe(true);
    expect(await slow).toEqual({ status: 200, body: { done: true } });
    await closing;
    socket.disconnect();
  });
  it('lets a job still running when the sockets are cut announce what it did (on Redis too: the broker closes last)', async () => {
    const jobsDatabase = await createTestDatabase();
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown) => void rejections.push(reason);
    process.on('unhandledRejection', onRejection);
    try {
      const jobsApp = await buildApp({
        db: jobsDatabase.db,
        logger: createLogger('silent'),
        mediaDir,
        appSecret: TEST_APP_SECRET,
        runJobs: true,
        redisUrl: process.env.REDIS_URL || undefined,
      });
      let started!: () => void;
      const running = new Promise<void>((resolve) => (started = resolve));
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let announced = false;
      const announceLate = defineJob({
        name: 'test.announce-late',
        payload: z.object({ tenantId: z.string() }),
        handler: async ({ tenantId }) => {
          started();
          await released;
          jobsApp.realtime.emitToTenant(tenantId, 'funnels_updated', {});
          announced = true;
        },
      });
      jobsApp.queue.register(announceLate);
      await listenOnRandomPort(jobsApp);
      const owner = await registerTenant(jobsApp);
      await jobsApp.queue.enqueue(jobsDatabase.db, announceLate, { tenantId: owner.tenant.id });
      await running;
      const closing = jobsApp.close();
      await wait(50);
      release();
      await closing;
      await wait(100);
      expect(announced).toBe(true);
      // Stacks, so a failure says where the rejection came from.
      expect(rejections.map((reason) => (reason instanceof Error ? reason.stack : String(reason)))).toEqual([]);
    } finally {
      process.off('unhandledRejection', onRejection);
      await jobsDatabase.close();
    }
  });
});
