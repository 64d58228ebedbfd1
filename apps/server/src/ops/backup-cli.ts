import path from 'node:path';
import { DataDirLockedError } from '../platform/db/data-dir-lock.ts';
import { BackupError, backupEmbedded, restoreEmbedded } from './backup.ts';

/**
 * `npm run backup [FILE]` and `npm run restore FILE` (embedded mode). DATA_DIR as the server reads it; FILE relative
 * to where npm was run (INIT_CWD). Messages are for the person at the terminal; the exit code says how it went.
 */
const [command, fileArgument] = process.argv.slice(2);
const here = process.env.INIT_CWD ?? process.cwd();
const dataDir = path.resolve(process.env.DATA_DIR || './data');

function stamp(date = new Date()) {
  return date.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
}

async function run(): Promise<void> {
  if (process.env.DATABASE_URL) {
    throw new BackupError('DATABASE_URL is set (server mode): back PostgreSQL up with pg_dump, see the README.');
  }
  if (command === 'backup') {
    const file = path.resolve(here, fileArgument ?? `embudo-backup-${stamp()}.tar.gz`);
    const manifest = await backupEmbedded(dataDir, file);
    process.stdout.write(`Backup of ${dataDir} written to ${file} (database and ${manifest.mediaFiles} media files).\n`);
  } else if (command === 'restore') {
    if (!fileArgument) throw new BackupError('Usage: npm run restore FILE (into an empty DATA_DIR).');
    const file = path.resolve(here, fileArgument);
    const manifest = await restoreEmbedded(file, dataDir);
    process.stdout.write(`Restored ${file} (taken ${manifest.createdAt}, ${manifest.mediaFiles} media files) into ${dataDir}.\n`);
  } else {
    throw new BackupError('Usage: backup [FILE] | restore FILE');
  }
}

run().catch((error: unknown) => {
  const known = error instanceof BackupError || error instanceof DataDirLockedError;
  process.stderr.write(`${known ? (error as Error).message : `Failed: ${error instanceof Error ? error.stack : String(error)}`}\n`);
  process.exit(1);
});
