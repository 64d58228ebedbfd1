import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { cards, messages } from '../../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../../test/support/build-test-app.ts';
import { bearer, registerTenant } from '../../../test/support/factories.ts';
import { listenOnRandomPort } from '../../../test/support/realtime-client.ts';
import { sandboxAppName } from '../tenants/index.ts';

const run = promisify(execFile);
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

let t: TestApp;
let baseUrl: string;
beforeAll(async () => {
  t = await buildTestApp({ providerMode: 'sandbox' });
  baseUrl = await listenOnRandomPort(t.app);
});
afterAll(async () => t.close());

async function chat() {
  const owner = await registerTenant(t.app);
  await t.app.sandboxPhone!.customerSends({ appName: sandboxAppName(owner.tenant), phone: '5215588888888', kind: 'text', text: 'hola' });
  const [card] = await t.database.db.select().from(cards).where(eq(cards.tenantId, owner.tenant.id));
  return { owner, card: card! };
}

async function upload(owner: Awaited<ReturnType<typeof registerTenant>>, fields: Record<string, string>, file?: { data: Buffer; name: string; type: string }) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  if (file) form.append('media', new Blob([new Uint8Array(file.data)], { type: file.type }), file.name);
  const response = await fetch(`${baseUrl}/t/${owner.tenant.slug}/api/message/media`, { method: 'POST', headers: bearer(owner.token), body: form });
  return { status: response.status, body: await response.json() };
}

describe('POST /api/message/media', () => {
  it('stores an image checked by content, with caption and tempId, and queues it', async () => {
    const { owner, card } = await chat();
    const answer = await upload(owner, { cardId: card.id, caption: 'Catálogo', tempId: 'tmp-img' }, { data: PNG, name: 'foto.png', type: 'image/png' });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ type: 'image', text: 'Catálogo', tempId: 'tmp-img', ack: 0, mediaMime: 'image/png' });
    const served = await fetch(`${baseUrl}${answer.body.mediaUrl}`);
    expect(Buffer.from(await served.arrayBuffer()).equals(PNG)).toBe(true);
  });

  it('turns a browser voice note (webm/opus) into ogg/opus named with a timestamp', async () => {
    const { owner, card } = await chat();
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'voice-'));
    const webm = path.join(dir, 'nota.webm');
    await run('ffmpeg', ['-loglevel', 'error', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=1', '-c:a', 'libopus', webm]);
    const answer = await upload(owner, { cardId: card.id }, { data: await fs.readFile(webm), name: 'blob', type: 'audio/webm' });
    await fs.rm(dir, { recursive: true, force: true });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ type: 'audio', mediaMime: 'audio/ogg' });
    expect(answer.body.fileName).toMatch(/^voice-\d+\.ogg$/);
    const stored = Buffer.from(await (await fetch(`${baseUrl}${answer.body.mediaUrl}`)).arrayBuffer());
    expect(stored.subarray(0, 4).toString()).toBe('OggS');
    expect(stored.includes(Buffer.from('OpusHead'))).toBe(true);
  });

  it("serves media in byte ranges, so a browser can seek and read a voice note's length", async () => {
    const { owner, card } = await chat();
    const answer = await upload(owner, { cardId: card.id }, { data: PNG, name: 'foto.png', type: 'image/png' });
    const url = `${baseUrl}${answer.body.mediaUrl}`;
    const whole = await fetch(url);
    expect(whole.headers.get('accept-ranges')).toBe('bytes');

    const head = await fetch(url, { headers: { range: 'bytes=1-3' } });
    expect(head.status).toBe(206);
    expect(head.headers.get('content-range')).toBe(`bytes 1-3/${PNG.length}`);
    expect(head.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await head.arrayBuffer()).toString()).toBe('PNG');

    const tail = await fetch(url, { headers: { range: 'bytes=-4' } });
    expect(tail.status).toBe(206);
    expect(Buffer.from(await tail.arrayBuffer()).equals(PNG.subarray(-4))).toBe(true);

    const past = await fetch(url, { headers: { range: `bytes=${PNG.length}-` } });
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe(`bytes */${PNG.length}`);
  });

  it('refuses a file whose content is not a WhatsApp type, whatever its name says', async () => {
    const { owner, card } = await chat();
    const answer = await upload(owner, { cardId: card.id }, { data: Buffer.from('MZ\x90\x00 not really an image'), name: 'foto.jpg', type: 'image/jpeg' });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe('Tipo de archivo no soportado por WhatsApp.');
  });

  it('refuses an image over 5 MB, a missing file, and files when the window is closed; nothing is written', async () => {
    const { owner, card } = await chat();
    const big = Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024 + 10)]);
    expect((await upload(owner, { cardId: card.id }, { data: big, name: 'big.png', type: 'image/png' })).body.message).toMatch(/supera el límite de 5 MB/);
    expect((await upload(owner, { cardId: card.id })).body.message).toBe('Falta el archivo (campo media).');
    await t.database.db
      .update(cards)
      .set({ contactLastMessageAt: new Date(Date.now() - 30 * 3600 * 1000) })
      .where(eq(cards.id, card.id));
    const closed = await upload(owner, { cardId: card.id }, { data: PNG, name: 'foto.png', type: 'image/png' });
    expect(closed).toMatchObject({ status: 400, body: { message: 'La ventana de 24 horas está cerrada. No se pueden enviar archivos.' } });
    expect((await t.database.db.select().from(messages).where(eq(messages.cardId, card.id))).filter((m) => m.sender === 'user')).toHaveLength(0);
  });
});
