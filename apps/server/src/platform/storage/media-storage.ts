import fs from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { FALLBACK_EXTENSION } from './media-types.ts';

/**
 * Who may fetch a stored file by its URL. `public`: anyone holding the URL, because providers (Gupshup, Meta)
 * download the media a customer is sent by its URL, and the browser shows chat media with plain <img>/<audio> tags.
 * `members`: only signed-in members of the file's company, for files that never leave it (the column assistant's
 * knowledge files). Both kinds have the same URL form, `/media/{tenantId}/{uuid}.{ext}`.
 */
export type MediaAccess = 'public' | 'members';

export interface StoredMedia {
  data: Buffer;
  access: MediaAccess;
}

/** Where media files live; local disk under DATA_DIR/media now, an S3-compatible store later. */
export interface MediaStorage {
  /** Stores the bytes and answers the app-relative URL that serves them (never expires); public unless told. */
  save(tenantId: string, data: Buffer, extension: string, access?: MediaAccess): Promise<string>;
  /** The bytes behind a URL, whoever may fetch them (the server's own readers: transcripts, knowledge). */
  read(relativeUrl: string): Promise<Buffer | undefined>;
  /** The bytes and who may fetch them, for the route that serves /media. */
  open(relativeUrl: string): Promise<StoredMedia | undefined>;
  /** Makes a file saved as public members-only (files stored before the members area existed); true if it moved. */
  restrict(relativeUrl: string): Promise<boolean>;
}

export const MEDIA_URL_PREFIX = '/media';
/** The folder, inside a company's folder, of its members-only files; not a stored name, so no URL reaches it as one. */
const MEMBERS_FOLDER = 'members';
const SHORT_EXTENSION = /^[a-z0-9]{1,8}$/;
/** Files saved before extensions were capped may carry a longer one; they are served too. */
const STORED_NAME = /^[0-9a-f-]{36}\.[a-z0-9]{1,200}$/;
const UUID = /^[0-9a-f-]{36}$/;

export function createDiskMediaStorage(root: string): MediaStorage {
  const folderOf = (tenantId: string, access: MediaAccess) => (access === 'members' ? path.join(root, tenantId, MEMBERS_FOLDER) : path.join(root, tenantId));
  const locate = (relativeUrl: string) => {
    const [, prefix, tenantId, name] = relativeUrl.split('/');
    if (`/${prefix}` !== MEDIA_URL_PREFIX || !tenantId || !name || !UUID.test(tenantId) || !STORED_NAME.test(name)) return undefined;
    return { public: path.join(folderOf(tenantId, 'public'), name), members: path.join(folderOf(tenantId, 'members'), name) };
  };
  const open = async (relativeUrl: string): Promise<StoredMedia | undefined> => {
    const file = locate(relativeUrl);
    if (!file) return undefined;
    // A name is a random UUID, so it is in one area at most; a members-only file is looked for first.
    const members = await fs.readFile(file.members).catch(() => undefined);
    if (members) return { data: members, access: 'members' };
    const data = await fs.readFile(file.public).catch(() => undefined);
    return data && { data, access: 'public' };
  };
  return {
    async save(tenantId, data, extension, access = 'public') {
      const cleaned = extension.replace(/[^a-z0-9]/gi, '').toLowerCase();
      const name = `${randomUUID()}.${SHORT_EXTENSION.test(cleaned) ? cleaned : FALLBACK_EXTENSION}`;
      const folder = folderOf(tenantId, access);
      await fs.mkdir(folder, { recursive: true });
      await fs.writeFile(path.join(folder, name), data);
      return `${MEDIA_URL_PREFIX}/${tenantId}/${name}`;
    },
    async read(relativeUrl) {
      return (await open(relativeUrl))?.data;
    },
    open,
    async restrict(relativeUrl) {
      const file = locate(relativeUrl);
      const exists =
        file &&
        (await fs.stat(file.public).then(
          (stat) => stat.isFile(),
          () => false,
        ));
      if (!exists) return false;
      await fs.mkdir(path.dirname(file.members), { recursive: true });
      // Another process may have moved it between the two calls: then it is members-only all the same.
      return fs.rename(file.public, file.members).then(
        () => true,
        () => false,
      );
    },
  };
}
