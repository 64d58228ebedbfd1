import fs from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { FALLBACK_EXTENSION } from './media-types.ts';

/** Where media files live; local disk under DATA_DIR/media now, an S3-compatible store later. */
export interface MediaStorage {
  /** Stores the bytes and answers the app-relative URL that serves them (never expires). */
  save(tenantId: string, data: Buffer, extension: string): Promise<string>;
  read(relativeUrl: string): Promise<Buffer | undefined>;
}

export const MEDIA_URL_PREFIX = '/media';
const SHORT_EXTENSION = /^[a-z0-9]{1,8}$/;
/** Files saved before extensions were capped may carry a longer one; they are served too. */
const STORED_NAME = /^[0-9a-f-]{36}\.[a-z0-9]{1,200}$/;
const UUID = /^[0-9a-f-]{36}$/;

export function createDiskMediaStorage(root: string): MediaStorage {
  const locate = (relativeUrl: string) => {
    const [, prefix, tenantId, name] = relativeUrl.split('/');
    if (`/${prefix}` !== MEDIA_URL_PREFIX || !tenantId || !name || !UUID.test(tenantId) || !STORED_NAME.test(name)) return undefined;
    return path.join(root, tenantId, name);
  };
  return {
    async save(tenantId, data, extension) {
      const cleaned = extension.replace(/[^a-z0-9]/gi, '').toLowerCase();
      const name = `${randomUUID()}.${SHORT_EXTENSION.test(cleaned) ? cleaned : FALLBACK_EXTENSION}`;
      await fs.mkdir(path.join(root, tenantId), { recursive: true });
      await fs.writeFile(path.join(root, tenantId, name), data);
      return `${MEDIA_URL_PREFIX}/${tenantId}/${name}`;
    },
    async read(relativeUrl) {
      const file = locate(relativeUrl);
      if (!file) return undefined;
      return fs.readFile(file).catch(() => undefined);
    },
  };
}
