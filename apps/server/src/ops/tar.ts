import type { Readable, Writable } from 'node:stream';

/**
 * The little of POSIX ustar the backup needs: regular files with names of up to 255 bytes, written to and read from
 * streams so a large media folder never sits in memory whole. Readable with any tar (`tar tzf backup.tar.gz`).
 */
const BLOCK = 512;

function field(header: Buffer, offset: number, length: number, value: string) {
  header.write(value, offset, Math.min(length, Buffer.byteLength(value)), 'utf8');
}

const octal = (value: number, length: number) => `${value.toString(8).padStart(length - 1, '0')}\0`;

export function tarHeader(name: string, size: number, mode = 0o644, mtime = new Date()): Buffer {
  const header = Buffer.alloc(BLOCK);
  let prefix = '';
  let base = name;
  if (Buffer.byteLength(name) > 100) {
    const cut = name.lastIndexOf('/', 155);
    if (cut <= 0 || Buffer.byteLength(name.slice(cut + 1)) > 100) throw new Error(`name too long for the archive: ${name}`);
    prefix = name.slice(0, cut);
    base = name.slice(cut + 1);
  }
  field(header, 0, 100, base);
  field(header, 100, 8, octal(mode, 8));
  field(header, 108, 8, octal(0, 8));
  field(header, 116, 8, octal(0, 8));
  field(header, 124, 12, octal(size, 12));
  field(header, 136, 12, octal(Math.floor(mtime.getTime() / 1000), 12));
  header.fill(' ', 148, 156);
  header[156] = '0'.charCodeAt(0);
  field(header, 257, 6, 'ustar\0');
  field(header, 263, 2, '00');
  field(header, 345, 155, prefix);
  const checksum = header.reduce((sum, byte) => sum + byte, 0);
  field(header, 148, 8, `${checksum.toString(8).padStart(6, '0')}\0 `);
  return header;
}

const padding = (size: number) => Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK);

function write(stream: Writable, chunk: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    stream.write(chunk, (error) => (error ? reject(error) : resolve()));
  });
}

/** Appends one file to an archive being written. */
export async function writeTarEntry(stream: Writable, name: string, data: Buffer, mode?: number): Promise<void> {
  await write(stream, tarHeader(name, data.length, mode));
  await write(stream, data);
  await write(stream, padding(data.length));
}

/** Ends an archive: two empty blocks. */
export const endTar = (stream: Writable) => write(stream, Buffer.alloc(BLOCK * 2));

export interface TarEntryHandler {
  /** Called for each file; answers where its bytes go (or undefined to skip them). */
  open(name: string, size: number, mode: number): Promise<Writable | undefined> | Writable | undefined;
}

const text = (header: Buffer, offset: number, length: number) =>
  header
    .subarray(offset, offset + length)
    .toString('utf8')
    .replace(/\0.*$/s, '');

/** Reads an archive stream, handing each regular file's bytes to the writable its handler answers. */
export async function readTar(source: Readable, handler: TarEntryHandler): Promise<void> {
  let pending: Buffer = Buffer.alloc(0);
  let current: { remaining: number; pad: number; sink: Writable | undefined } | undefined;
  let ended = false;
  for await (const chunk of source as AsyncIterable<Buffer>) {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    while (!ended) {
      if (current) {
        if (current.remaining > 0) {
          if (pending.length === 0) break;
          const take = pending.subarray(0, Math.min(current.remaining, pending.length));
          if (current.sink) await write(current.sink, Buffer.from(take));
          current.remaining -= take.length;
          pending = pending.subarray(take.length);
          if (current.remaining > 0) break;
          if (current.sink) await new Promise<void>((resolve, reject) => current!.sink!.end((error?: Error | null) => (error ? reject(error) : resolve())));
        }
        if (pending.length < current.pad) break;
        pending = pending.subarray(current.pad);
        current = undefined;
      }
      if (pending.length < BLOCK) break;
      const header = pending.subarray(0, BLOCK);
      pending = pending.subarray(BLOCK);
      if (header.every((byte) => byte === 0)) {
        ended = true;
        break;
      }
      const size = parseInt(text(header, 124, 12).trim() || '0', 8);
      const mode = parseInt(text(header, 100, 8).trim() || '644', 8);
      const type = String.fromCharCode(header[156] ?? 48);
      const prefix = text(header, 345, 155);
      const name = prefix ? `${prefix}/${text(header, 0, 100)}` : text(header, 0, 100);
      const sink = type === '0' || type === '\0' ? await handler.open(name, size, mode) : undefined;
      current = { remaining: size, pad: padding(size).length, sink };
      if (size === 0 && sink) await new Promise<void>((resolve) => sink.end(() => resolve()));
      if (size === 0) current.remaining = 0;
    }
  }
  if (current && current.remaining > 0) throw new Error('the archive ends in the middle of a file');
}
