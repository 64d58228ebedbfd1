import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { fileTypeFromBuffer } from 'file-type';
import { badRequest } from '../../platform/errors/app-error.ts';

const run = promisify(execFile);
const MB = 1024 * 1024;

/** WhatsApp's accepted media and its per-kind size limits (provider/meta-cloud.md §9). */
const accepted: Array<{ mime: string; kind: 'image' | 'video' | 'audio' | 'document' | 'sticker'; maxBytes: number }> = [
  { mime: 'image/jpeg', kind: 'image', maxBytes: 5 * MB },
  { mime: 'image/png', kind: 'image', maxBytes: 5 * MB },
  { mime: 'image/webp', kind: 'sticker', maxBytes: 500 * 1024 },
  { mime: 'video/mp4', kind: 'video', maxBytes: 16 * MB },
  { mime: 'video/3gpp', kind: 'video', maxBytes: 16 * MB },
  { mime: 'audio/ogg', kind: 'audio', maxBytes: 16 * MB },
  { mime: 'audio/mpeg', kind: 'audio', maxBytes: 16 * MB },
  { mime: 'audio/aac', kind: 'audio', maxBytes: 16 * MB },
  { mime: 'audio/amr', kind: 'audio', maxBytes: 16 * MB },
  { mime: 'audio/mp4', kind: 'audio', maxBytes: 16 * MB },
  { mime: 'audio/x-m4a', kind: 'audio', maxBytes: 16 * MB },
  { mime: 'application/pdf', kind: 'document', maxBytes: 100 * MB },
  { mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', kind: 'document', maxBytes: 100 * MB },
  { mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', kind: 'document', maxBytes: 100 * MB },
  { mime: 'application/vnd.openxmlformats-officedocument.presentationml.presentation', kind: 'document', maxBytes: 100 * MB },
  { mime: 'application/msword', kind: 'document', maxBytes: 100 * MB },
  { mime: 'application/vnd.ms-excel', kind: 'document', maxBytes: 100 * MB },
  { mime: 'application/x-cfb', kind: 'document', maxBytes: 100 * MB },
];

export const UNSUPPORTED_FILE = 'Tipo de archivo no soportado por WhatsApp.';

export interface CheckedMedia {
  kind: 'image' | 'video' | 'audio' | 'document' | 'sticker';
  mime: string;
  extension: string;
  data: Buffer;
}

function looksLikeText(data: Buffer) {
  return !data.subarray(0, 4096).includes(0);
}

/**
 * Checks an upload by its content, not its name or declared type, against WhatsApp's limits.
 * Browser voice notes (webm/opus) are remuxed to ogg/opus, the only audio WhatsApp plays as a voice note.
 */
export async function checkUpload(data: Buffer, fileName: string): Promise<CheckedMedia> {
  const detected = await fileTypeFromBuffer(data);
  if (!detected) {
    if (fileName.toLowerCase().endsWith('.txt') && looksLikeText(data) && data.length <= 100 * MB) {
      return { kind: 'document', mime: 'text/plain', extension: 'txt', data };
    }
    throw badRequest(UNSUPPORTED_FILE);
  }
  if (detected.mime === 'video/webm' || detected.mime === 'audio/webm') {
    return { kind: 'audio', mime: 'audio/ogg', extension: 'ogg', data: await webmToOgg(data) };
  }
  const rule = accepted.find((entry) => entry.mime === detected.mime);
  if (!rule) throw badRequest(UNSUPPORTED_FILE);
  if (data.length > rule.maxBytes) throw badRequest(`El archivo supera el límite de ${Math.round(rule.maxBytes / MB) || 0.5} MB para este tipo.`);
  return { kind: rule.kind, mime: detected.mime, extension: detected.ext, data };
}

async function webmToOgg(data: Buffer): Promise<Buffer> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'embudo-voice-'));
  const input = path.join(dir, `${randomUUID()}.webm`);
  const output = path.join(dir, `${randomUUID()}.ogg`);
  try {
    await fs.writeFile(input, data);
    try {
      await run('ffmpeg', ['-y', '-loglevel', 'error', '-i', input, '-vn', '-c:a', 'copy', '-f', 'ogg', output], { timeout: 60_000 });
    } catch {
      // Not opus inside: re-encode to the voice-note format.
      await run(
        'ffmpeg',
        [
          '-y',
          '-loglevel',
          'error',
          '-i',
          input,
          '-vn',
          '-c:a',
          'libopus',
          '-b:a',
          '32k',
          '-ac',
          '1',
          '-ar',
          '48000',
          '-application',
          'voip',
          '-f',
          'ogg',
          output,
        ],
        { timeout: 60_000 },
      );
    }
    return await fs.readFile(output);
  } catch {
    throw badRequest('No se pudo convertir la nota de voz a OGG/Opus.');
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
