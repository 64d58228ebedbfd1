import { createServer } from 'node:http';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../support/build-test-app.ts';
import { registerTenant } from '../support/factories.ts';
import { connectClient, joinTenant, listenOnRandomPort, nextEvent, type TestSocket } from '../support/realtime-client.ts';
import { buildApp } from '../../src/app.ts';
import { createLogger } from '../../src/platform/logger/logger.ts';
import { createRealtime } from '../../src/platform/realtime/realtime.ts';
import { openPostgres, type Database } from '../../src/platform/db/database.ts';

let t: TestApp;
const sockets: TestSocket[] = [];
const track = (socket: TestSocket) => (sockets.push(socket), socket);

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await t.close();
});

const redisUrl = process.env.REDIS_URL!;

describe('realtime across app instances (Redis adapter)', () => {
  it('delivers an event emitted on one instance to a client connected to another', async () => {
    // Two app instances sharing one database: separate pools on PostgreSQL, as separate processes would.
    const second: Database | undefined = t.database.url ? await openPostgres(t.database.url) : undefined;
    const appOne = await buildApp({
      db: t.database.db,
      logger: createLogger('silent'),
      redisUrl,
      mediaDir: os.tmpdir(),
      appSecret: 'bench-and-test-secret-0123456789abcdef',
    });
    const appTwo = await buildApp({
      db: second?.db ?? t.database.db,
      logger: createLogger('silent'),
      redisUrl,
      mediaDir: os.tmpdir(),
      appSecret: 'bench-and-test-secret-0123456789abcdef',
    });
    try {
      const urlOne = await listenOnRandomPort(appOne);
      const urlTwo = await listenOnRandomPort(appTwo);
      const session = await registerTenant(appOne);
      const socket = track(connectClient(urlTwo, session.token, session.tenant.slug));
      expect(await joinTenant(socket, session.tenant.slug, session.token)).toEqual({ ok: true });
      expect(urlOne).not.toBe(urlTwo);
      const received = nextEvent(socket, 'message_status_updated');
      // The adapter's subscription may need a moment after start; re-emit until delivered or the deadline.
      const deadline = Date.now() + 5000;
      let delivered: unknown;
      received.then((payload) => (delivered = payload)).catch(() => undefined);
      while (!delivered && Date.now() < deadline) {
        appOne.realtime.emitToTenant(session.tenant.id, 'message_status_updated', { cardId: 'c1', messageId: 'm1', ack: 2 });
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(await received).toEqual({ cardId: 'c1', messageId: 'm1', ack: 2 });
    } finally {
      await appOne.close();
      await appTwo.close();
      await second?.close();
    }
  });
});

/** A realtime on Redis alone (no app around it), as the app's shutdown closes it. */
const realtimeOnRedis = () =>
  createRealtime({
    httpServer: createServer(),
    resolveSession: async () => null,
    funnelAccessOf: async () => ({ all: true }),
    redisUrl: process.env.REDIS_URL!,
    logger: createLogger('silent'),
  });

/** Runs `work` and answers the stacks of the promise rejections nobody handled meanwhile (and shortly after). */
async function unhandledRejectionsOf(work: () => Promise<void>) {
  const rejections: unknown[] = [];
  const onRejection = (reason: unknown) => void rejections.push(reason);
  process.on('unhandledRejection', onRejection);
  try {
    await work();
    await new Promise((resolve) => setTimeout(resolve, 200));
  } finally {
    process.off('unhandledRejection', onRejection);
  }
  return rejections.map((reason) => (reason instanceof Error ? reason.stack : String(reason)));
}

describe('closing the Redis connections', () => {
  it('leaves no unhandled rejection when they close before they are ready (as a quick shutdown does)', async () => {
    expect(await unhandledRejectionsOf(() => realtimeOnRedis().closeBroker())).toEqual([]);
  });

  it('closes once the events emitted just before have gone out, without an unhandled rejection', async () => {
    const realtime = realtimeOnRedis();
    await realtime.pingRedis(5_000);
    const rejections = await unhandledRejectionsOf(async () => {
      // As a job that finishes while the app closes: its last event, then the broker closes at once.
      realtime.emitToTenant('00000000-0000-0000-0000-000000000000', 'funnels_updated', {});
      await realtime.closeBroker();
    });
    expect(rejections).toEqual([]);
  });
});
