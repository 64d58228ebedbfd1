import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { cards, messages, tenants } from '../../db/schema/index.ts';
import { TEST_APP_SECRET } from '../../test/support/build-test-app.ts';
import { registerTenant } from '../../test/support/factories.ts';
import { listenOnRandomPort } from '../../test/support/realtime-client.ts';
import { SERVER_ROOT } from '../../test/support/server-process.ts';
import { buildApp } from '../app.ts';
import { sandboxAppName } from '../modules/tenants/index.ts';
import { openPglite, queryRows } from '../platform/db/database.ts';
import { acquireDataDirLock } from '../platform/db/data-dir-lock.ts';
import { createLogger } from '../platform/logger/logger.ts';
import { backupEmbedded, restoreEmbedded } from './backup.ts';
import { tarHeader } from './tar.ts';

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'embudo-backup-'));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

/** A company with a chat holding a text and an image (its file downloaded into DATA_DIR/media), written as the server does. */
async function companyWithChat(dataDir: string) {
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(path.join(dataDir, 'app-secret'), TEST_APP_SECRET, { mode: 0o600 });
  const database = await openPglite(dataDir);
  const app = await buildApp({
    db: database.db,
    logger: createLogger('silent'),
    mediaDir: path.join(dataDir, 'media'),
    appSecret: TEST_APP_SECRET,
    providerMode: 'sandbox',
  });
  try {
    await listenOnRandomPort(app);
    const owner = await registerTenant(app, { companyName: 'Panadería Respaldada' });
    const fake = app.sandboxPhone!;
    const appName = sandboxAppName(owner.tenant);
    await fake.customerSends({ appName, phone: '5215577776666', name: 'Rosa', kind: 'text', text: '¿Tienen pan de muerto?' });
    await fake.customerSends({ appName, phone: '5215577776666', kind: 'image', url: await fake.storeFile(PNG, 'image/png'), contentType: 'image/png' });
    // A production server answers the webhook once the delivery is stored; apply both before the media download runs.
    await app.webhookIntake.drain();
    await app.queue.drain();
    const [image] = await database.db
      .select()
      .from(messages)
      .where(and(eq(messages.tenantId, owner.tenant.id), eq(messages.type, 'image')));
    expect(image?.mediaUrl).toBeTruthy();
    return { tenantId: owner.tenant.id, mediaUrl: image!.mediaUrl! };
  } finally {
    await app.close();
    await database.close();
  }
}

const filesUnder = (root: string): string[] =>
  fs.existsSync(root)
    ? fs
        .readdirSync(root, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
    : [];

describe('embedded backups', () => {
  it('round-trips: backup, wipe, restore into an empty DATA_DIR keeps companies, chats, messages, media and the app secret', async () => {
    const dataDir = path.join(scratch, 'data');
    const { tenantId, mediaUrl } = await companyWithChat(dataDir);
    const file = path.join(scratch, 'respaldo.tar.gz');
    const manifest = await backupEmbedded(dataDir, file);
    expect(manifest).toMatchObject({ format: 'embudo-embedded-backup', version: 1, mediaFiles: 1 });
    expect(fs.statSync(file).mode & 0o077).toBe(0);
    const mediaBefore = filesUnder(path.join(dataDir, 'media'));

    fs.rmSync(dataDir, { recursive: true, force: true });
    await restoreEmbedded(file, dataDir);

    expect(fs.readFileSync(path.join(dataDir, 'app-secret'), 'utf8')).toBe(TEST_APP_SECRET);
    expect(filesUnder(path.join(dataDir, 'media'))).toEqual(mediaBefore);
    const storedFile = path.join(dataDir, 'media', mediaUrl.replace(/^\/media\//, ''));
    expect(fs.readFileSync(storedFile).equals(PNG)).toBe(true);
    const database = await openPglite(dataDir);
    try {
      const [company] = await database.db.select().from(tenants).where(eq(tenants.id, tenantId));
      expect(company?.name).toBe('Panadería Respaldada');
      const chats = await database.db.select().from(cards).where(eq(cards.tenantId, tenantId));
      expect(chats.map((card) => card.phone)).toEqual(['5215577776666']);
      const texts = await database.db.select().from(messages).where(eq(messages.tenantId, tenantId));
      expect(texts.map((message) => message.text ?? message.mediaUrl).sort()).toEqual([mediaUrl, '¿Tienen pan de muerto?'].sort());
      // The restored database is whole: the migrations are there and it takes writes.
      const [migrations] = await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
      expect(migrations!.n).toBeGreaterThan(10);
      await database.db.update(tenants).set({ name: 'Panadería Restaurada' }).where(eq(tenants.id, tenantId));
    } finally {
      await database.close();
    }
    // Opens an embedded database on disk three times (6 s alone): beside the browser journeys and the other suites in
    // CI it took up to 32 s.
  }, 90_000);

  it('refuses to restore into a folder that is not empty, and leaves it as it was', async () => {
    const dataDir = path.join(scratch, 'lleno');
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(path.join(dataDir, 'algo.txt'), 'mío');
    const file = path.join(scratch, 'respaldo.tar.gz');
    await expect(restoreEmbedded(file, dataDir)).rejects.toThrow(/is not empty: restore only into an empty folder/);
    expect(fs.readdirSync(dataDir)).toEqual(['algo.txt']);
  });

  it('refuses to back up while a server holds the folder', async () => {
    const dataDir = path.join(scratch, 'en-uso');
    fs.mkdirSync(path.join(dataDir, 'pg'), { recursive: true });
    const release = acquireDataDirLock(dataDir);
    // The lock names this very process; a backup from another process is what is refused.
    fs.writeFileSync(path.join(dataDir, 'embudo.lock'), String(process.ppid));
    try {
      await expect(backupEmbedded(dataDir, path.join(scratch, 'no.tar.gz'))).rejects.toThrow(/is in use by process/);
    } finally {
      release();
    }
  });

  it('refuses a file that is not an Embudo backup, leaving the folder empty', async () => {
    const dataDir = path.join(scratch, 'vacio');
    const bogus = path.join(scratch, 'otro.tar.gz');
    await pipeline(
      Readable.from([tarHeader('notas.txt', 4), Buffer.concat([Buffer.from('hola'), Buffer.alloc(508)]), Buffer.alloc(1024)]),
      createGzip(),
      fs.createWriteStream(bogus),
    );
    await expect(restoreEmbedded(bogus, dataDir)).rejects.toThrow(/Unexpected file in the backup: notas.txt|is not an Embudo embedded backup/);
    expect(fs.readdirSync(dataDir)).toEqual([]);
  });

  it('npm run restore: refuses a non-empty DATA_DIR with one line and exit code 1', async () => {
    const dataDir = path.join(scratch, 'cli');
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(path.join(dataDir, 'x'), '');
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/ops/backup-cli.ts', 'restore', path.join(scratch, 'respaldo.tar.gz')], {
      cwd: SERVER_ROOT,
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
    });
    let err = '';
    child.stderr.on('data', (chunk) => (err += chunk));
    const code = await new Promise((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    expect(err.trim().split('\n')).toEqual([`DATA_DIR ${dataDir} is not empty: restore only into an empty folder (move the current data away first).`]);
  });
});
