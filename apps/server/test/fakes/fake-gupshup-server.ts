import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { FakeGupshup, fakeGupshupRoutes, type FakeApp } from '../../src/messaging-providers/sandbox/fake-gupshup.ts';

/** The Gupshup fake as a separate local server on a random port, with its apps set by the test. */
export async function startFakeGupshupServer(options: { statusStepMs?: number } = {}) {
  const apps: FakeApp[] = [];
  const server = Fastify();
  let url = '';
  const fake = new FakeGupshup({ apps: () => apps, publicUrl: () => url, statusStepMs: options.statusStepMs ?? 20 });
  await server.register(fakeGupshupRoutes(fake));
  await server.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
  return {
    url,
    fake,
    apps,
    close: async () => {
      fake.close();
      await server.close();
    },
  };
}
