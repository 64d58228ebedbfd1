import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/support/build-test-app.ts';
import { registerTenant } from '../../../test/support/factories.ts';
import { deliverInboundFile } from '../../../test/support/inbound-media.ts';
import { listenOnRandomPort } from '../../../test/support/realtime-client.ts';
import { startFakeWebhookServer } from '../../../test/fakes/fake-webhook-server.ts';
import { MEDIA_NOT_DOWNLOADED } from './chats.jobs.ts';

/**
 * Sandbox mode: inbound media is read only from the in-process fake, so a webhook naming any other URL,
 * this server's own loopback included, reaches nothing and leaves the message in a failed-media state
 * (live mode: live-provider.test.ts). Stored files get short names from a fixed map and are all served.
 */
let loopback: Awaited<ReturnType<typeof startFakeWebhookServer>>;
let t: TestApp;
let baseUrl = '';
/** Requests that reached the app's own HTTP server (inject() does not go through it). */
const ownRequests: string[] = [];

beforeAll(async () => {
  loopback = await startFakeWebhookServer();
  loopback.route('/secret', { contentType: 'text/plain', body: 'secreto del servidor' });
  t = await buildTestApp({ providerMode: 'sandbox' });
  baseUrl = await listenOnRandomPort(t.app);
  t.app.server.on('request', (request: { url?: string }) => ownRequests.push(request.url ?? ''));
});
afterAll(async () => {
  await t?.close();
  await loopback.close();
});

const tenantMediaFiles = (tenantId: string) => {
  const folder = path.join(t.mediaDir, tenantId);
  return fs.existsSync(folder) ? fs.readdirSync(folder) : [];
};

describe('inbound media in sandbox mode', () => {
  it('refuses every URL that is not a file the sandbox phone uploaded, without a single connection, and says so on the message', async () => {
    const owner = await registerTenant(t.app);
    const fake = t.app.sandboxPhone!;
    const uploaded = await fake.storeFile(Buffer.from('%PDF-1.4 prueba'), 'application/pdf');
    const port = new URL(loopback.url).port;
    const urls = [
      `http://127.0.0.1:${port}/secret`,
      `http://[::ffff:7f00:1]:${port}/secret`,
      `http://localhost:${port}/secret`,
      // The fake's own file path, but on another origin.
      `http://127.0.0.1:${port}${new URL(uploaded).pathname}`,
      // This very server: other routes, and the fake's prefix with something that is not a stored file.
      `${baseUrl}/api/health`,
      `${baseUrl}/media/${owner.tenant.id}/${randomUUID()}.jpg`,
      `${baseUrl}/sandbox-gupshup/files/no-existe`,
      `${baseUrl}/sandbox-gupshup/files/../../api/health`,
    ];
    for (const url of urls) {
      const { job, message } = await deliverInboundFile(t, owner, { url, contentType: 'application/pdf' });
      expect(job, url).toMatchObject({ status: 'completed', attempts: 1 });
      expect(message, url).toMatchObject({ mediaUrl: null, errorReason: MEDIA_NOT_DOWNLOADED });
    }
    expect(loopback.received).toHaveLength(0);
    expect(ownRequests).toEqual([]);
    expect(tenantMediaFiles(owner.tenant.id)).toEqual([]);
  });

  it('stores and serves a file the sandbox phone uploaded', async () => {
    const owner = await registerTenant(t.app);
    const pdf = Buffer.from('%PDF-1.4\n%prueba\n');
    const url = await t.app.sandboxPhone!.storeFile(pdf, 'application/pdf');
    const { message } = await deliverInboundFile(t, owner, { url, contentType: 'application/pdf' });
    expect(message.errorReason).toBeNull();
    expect(message.mediaUrl).toMatch(new RegExp(`^/media/${owner.tenant.id}/[0-9a-f-]{36}\\.pdf$`));
    const served = await t.app.inject({ method: 'GET', url: message.mediaUrl! });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(pdf)).toBe(true);
    expect(ownRequests).toEqual([]);
  });
});

describe('stored media names', () => {
  it.each([
    ['application/octet-stream', Buffer.from('datos binarios sin tipo conocido')],
    ['application/x-msdownload', Buffer.from('un programa de Windows, o eso dice')],
    ['application/vnd.android.package-archive', Buffer.from('una app de Android, o eso dice')],
  ])('stores a %s document under a short safe name and serves it', async (contentType, data) => {
    const owner = await registerTenant(t.app);
    const url = await t.app.sandboxPhone!.storeFile(data, contentType);
    const { message } = await deliverInboundFile(t, owner, { url, contentType });
    expect(message.mediaUrl).toMatch(new RegExp(`^/media/${owner.tenant.id}/[0-9a-f-]{36}\\.bin$`));
    const served = await t.app.inject({ method: 'GET', url: message.mediaUrl! });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(data)).toBe(true);
    expect(served.headers['content-type']).toBe('application/octet-stream');
  });

  it('names known types from the fixed map, by content first, then by the declared type', async () => {
    const owner = await registerTenant(t.app);
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
    const cases: Array<[string, Buffer, string]> = [
      ['application/octet-stream', png, 'png'],
      ['text/csv; charset=utf-8', Buffer.from('a,b\n1,2\n'), 'csv'],
      ['application/vnd.openxmlformats-officedocument.presentationml.presentation', Buffer.from('no es un zip de verdad'), 'pptx'],
    ];
    for (const [contentType, data, extension] of cases) {
      const url = await t.app.sandboxPhone!.storeFile(data, contentType);
      const { message } = await deliverInboundFile(t, owner, { url, contentType });
      expect(message.mediaUrl, contentType).toMatch(new RegExp(`\\.${extension}$`));
      expect((await t.app.inject({ method: 'GET', url: message.mediaUrl! })).statusCode).toBe(200);
    }
  });

  it('still serves a file stored earlier under a long extension', async () => {
    const tenantId = randomUUID();
    const name = `${randomUUID()}.vndandroidpackagearchive`;
    fs.mkdirSync(path.join(t.mediaDir, tenantId), { recursive: true });
    fs.writeFileSync(path.join(t.mediaDir, tenantId, name), 'guardado antes del arreglo');
    const served = await t.app.inject({ method: 'GET', url: `/media/${tenantId}/${name}` });
    expect(served.statusCode).toBe(200);
    expect(served.body).toBe('guardado antes del arreglo');
  });
});
