import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { FakeMetaCloud, fakeMetaCloudRoutes, type FakeMetaNumber } from '../../src/messaging-providers/sandbox/fake-meta-cloud.ts';

/** The Cloud API fake as a separate local server on a random port, with its numbers set by the test. */
export async function startFakeMetaServer(options: { statusStepMs?: number; templateReviewMs?: number } = {}) {
  const numbers: FakeMetaNumber[] = [];
  const server = Fastify();
  let url = '';
  const fake = new FakeMetaCloud({
    numbers: () => numbers,
    publicUrl: () => url,
    statusStepMs: options.statusStepMs ?? 20,
    templateReviewMs: options.templateReviewMs ?? 20,
  });
  await server.register(fakeMetaCloudRoutes(fake));
  await server.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
  return {
    url,
    fake,
    numbers,
    close: async () => {
      fake.close();
      await server.close();
    },
  };
}
