import fs from 'node:fs';
import path from 'node:path';

export class DataDirLockedError extends Error {}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes `dataDir/embudo.lock` for this process; a lock left by a dead process is taken over. */
export function acquireDataDirLock(dataDir: string): () => void {
  const lockPath = path.join(dataDir, 'embudo.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockPath, String(process.pid), { flag: 'wx' });
      return () => fs.rmSync(lockPath, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number(fs.readFileSync(lockPath, 'utf8'));
      if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && processIsAlive(holder)) {
        throw new DataDirLockedError(
          `DATA_DIR ${dataDir} is in use by process ${holder}; the embedded database allows one process. Stop it or set DATABASE_URL.`,
        );
      }
      fs.rmSync(lockPath, { force: true });
    }
  }
  throw new DataDirLockedError(`Could not lock DATA_DIR ${dataDir}`);
}
