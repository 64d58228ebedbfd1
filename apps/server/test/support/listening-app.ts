import { afterAll, beforeAll } from 'vitest';
import { buildTestApp, type TestApp } from './build-test-app.ts';
import { connectClient, joinTenant, listenOnRandomPort, type TestSocket } from './realtime-client.ts';

/**
 * One sandbox app per test file, listening on a random port so realtime clients can connect;
 * sockets opened through it are closed with the app.
 */
export function useListeningSandboxApp() {
  let testApp: TestApp | undefined;
  let baseUrl = '';
  const sockets: TestSocket[] = [];
  beforeAll(async () => {
    testApp = await buildTestApp({ providerMode: 'sandbox' });
    baseUrl = await listenOnRandomPort(testApp.app);
  });
  afterAll(async () => {
    sockets.forEach((socket) => socket.disconnect());
    await testApp?.close();
  });
  return {
    get t(): TestApp {
      if (!testApp) throw new Error('the test app is built in beforeAll');
      return testApp;
    },
    /** A client of this session already in its tenant's room, as the web app joins. */
    async joinedSocket(session: { token: string; tenant: { slug: string } }): Promise<TestSocket> {
      const socket = connectClient(baseUrl, session.token, session.tenant.slug);
      sockets.push(socket);
      await joinTenant(socket, session.tenant.slug, session.token);
      return socket;
    },
  };
}
