import fs from 'node:fs';
import path from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import { acquireDataDirLock } from '../platform/db/data-dir-lock.ts';
import { endTar, readTar, writeTarEntry } from './tar.ts';

/**
 * Backups of the embedded mode (issue 17): one .tar.gz with the PGlite data directory (its own dump), the media
 * files and the generated app secret (without it, provider secrets stored encrypted could not be read back). Taken
 * with the server stopped: the embedded database admits one process, so the snapshot is consistent. Server mode
 * (PostgreSQL) backs up with pg_dump instead (README).
 */
export const BACKUP_FORMAT = 'embudo-embedded-backup';
export const BACKUP_VERSION = 1;
const MANIFEST = 'embudo-backup.json';
const DATABASE_DUMP = 'pgdata.tar';
const APP_SECRET = 'app-secret';
const MEDIA = 'media';

export class BackupError extends Error {}

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  version: number;
  createdAt: string;
  mediaFiles: number;
}

function* mediaFiles(root: string, relative = ''): Generator<string> {
  const folder = path.join(root, relative);
  if (!fs.existsSync(folder)) return;
  for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
    const name = relative ? `${relative}/${entry.name}` : entry.name;
    if (entry.isDirectory()) yield* mediaFiles(root, name);
    else if (entry.isFile()) yield name;
  }
}

/** Writes the backup of `dataDir` to `file`; refuses while a server holds the folder. */
export async function backupEmbedded(dataDir: string, file: string): Promise<BackupManifest> {
  if (!fs.existsSync(path.join(dataDir, 'pg'))) throw new BackupError(`No embedded database in ${dataDir} (no pg/ folder): nothing to back up.`);
  const release = acquireDataDirLock(dataDir);
  try {
    const database = new PGlite(path.join(dataDir, 'pg'));
    let dump: Buffer;
    try {
      await database.waitReady;
      dump = Buffer.from(await (await database.dumpDataDir('none')).arrayBuffer());
    } finally {
      await database.close();
    }
    const media = [...mediaFiles(path.join(dataDir, MEDIA))];
    const manifest: BackupManifest = { format: BACKUP_FORMAT, version: BACKUP_VERSION, createdAt: new Date().toISOString(), mediaFiles: media.length };
    fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    const tar = new PassThrough();
    const written = pipeline(tar, createGzip(), fs.createWriteStream(file, { mode: 0o600 }));
    await writeTarEntry(tar, MANIFEST, Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`));
    await writeTarEntry(tar, DATABASE_DUMP, dump);
    const secret = path.join(dataDir, APP_SECRET);
    if (fs.existsSync(secret)) await writeTarEntry(tar, APP_SECRET, fs.readFileSync(secret), 0o600);
    for (const name of media) await writeTarEntry(tar, `${MEDIA}/${name}`, fs.readFileSync(path.join(dataDir, MEDIA, name)));
    await endTar(tar);
    tar.end();
    await written;
    return manifest;
  } finally {
    release();
  }
}

/** Only names this program writes, and never a way out of the folder. */
function safeTarget(dataDir: string, name: string): string | undefined {
  if (name === MANIFEST || name === DATABASE_DUMP) return undefined;
  if (name === APP_SECRET) return path.join(dataDir, APP_SECRET);
  if (!name.startsWith(`${MEDIA}/`) || name.split('/').some((part) => part === '..' || part === '' || part === '.')) {
    throw new BackupError(`Unexpected file in the backup: ${name}`);
  }
  return path.join(dataDir, name);
}

function collect(into: Buffer[]): Writable {
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      into.push(chunk);
      done();
    },
  });
}

/** Brings a backup back into `dataDir`, which must be empty or absent. */
export async function restoreEmbedded(file: string, dataDir: string): Promise<BackupManifest> {
  if (!fs.existsSync(file)) throw new BackupError(`Backup file not found: ${file}`);
  if (fs.existsSync(dataDir) && fs.readdirSync(dataDir).length > 0) {
    throw new BackupError(`DATA_DIR ${dataDir} is not empty: restore only into an empty folder (move the current data away first).`);
  }
  fs.mkdirSync(dataDir, { recursive: true });
  const manifestChunks: Buffer[] = [];
  const dumpChunks: Buffer[] = [];
  try {
    await readTar(fs.createReadStream(file).pipe(createGunzip()), {
      open: (name, _size, mode) => {
        if (name === MANIFEST) return collect(manifestChunks);
        if (name === DATABASE_DUMP) return collect(dumpChunks);
        const target = safeTarget(dataDir, name)!;
        fs.mkdirSync(path.dirname(target), { recursive: true });
        return fs.createWriteStream(target, { mode: name === APP_SECRET ? 0o600 : mode & 0o666 });
      },
    });
    const manifest = JSON.parse(Buffer.concat(manifestChunks).toString('utf8') || '{}') as Partial<BackupManifest>;
    if (manifest.format !== BACKUP_FORMAT || manifest.version !== BACKUP_VERSION) throw new BackupError(`${file} is not an Embudo embedded backup.`);
    if (dumpChunks.length === 0) throw new BackupError(`${file} holds no database.`);
    const database = new PGlite(path.join(dataDir, 'pg'), { loadDataDir: new Blob([Buffer.concat(dumpChunks)]) });
    await database.waitReady;
    await database.close();
    return manifest as BackupManifest;
  } catch (error) {
    // Nothing half-restored stays behind: the folder was empty before.
    for (const entry of fs.readdirSync(dataDir)) fs.rmSync(path.join(dataDir, entry), { recursive: true, force: true });
    if (error instanceof BackupError) throw error;
    throw new BackupError(`Could not restore ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
