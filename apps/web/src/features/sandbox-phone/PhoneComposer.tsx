import { useId, useRef, useState, type FormEvent } from 'react';
import { Spinner } from '../../shared/ui/Spinner.tsx';
import { blobToBase64 } from './blob-to-base64.ts';
import type { CustomerMessageInput } from '@embudo/contracts/http/sandbox-phone';
import { useVoiceRecorder, voiceRecordingSupported } from './use-voice-recorder.ts';

/** The server takes 25 MB of JSON; base64 grows a file by a third. */
export const MAX_ATTACHMENT_BYTES = 16 * 1024 * 1024;

/** A fixed spot, so sending a location needs no permission prompt. */
export const SAMPLE_LOCATION = {
  latitude: 19.432608,
  longitude: -99.133209,
  name: 'Zócalo',
  address: 'Plaza de la Constitución, Centro, Ciudad de México',
} as const;

export interface PhoneComposerProps {
  disabled: boolean;
  sending: boolean;
  /** Resolves once the sandbox accepted the message; the composer clears only then. */
  onSend: (message: CustomerMessageInput) => Promise<unknown>;
  onError: (message: string) => void;
}

function sizeLabel(bytes: number) {
  return bytes < 1024 * 1024 ? `${Math.max(1, Math.round(bytes / 1024))} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function clock(seconds: number) {
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

const iconButton =
  'grid size-10 shrink-0 place-items-center rounded-full text-slate-500 transition hover:bg-black/5 hover:text-slate-700 disabled:cursor-not-allowed disabled:opacity-40';

/** The customer's input bar: text, an attachment with optional caption, a location, or a voice note. */
export function PhoneComposer({ disabled, sending, onSend, onError }: PhoneComposerProps) {
  const [text, setText] = useState('');
  const [attachment, setAttachment] = useState<File | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const messageId = useId();
  const voice = useVoiceRecorder();
  const canRecord = voiceRecordingSupported();
  const busy = disabled || sending;

  const send = async (message: CustomerMessageInput) => {
    try {
      await onSend(message);
      return true;
    } catch {
      // The page shows the server's message; the composer keeps what was typed.
      return false;
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const caption = text.trim();
    if (attachment) {
      const dataBase64 = await blobToBase64(attachment);
      if (await send({ kind: 'media', dataBase64, fileName: attachment.name, ...(caption ? { caption } : {}) })) {
        setAttachment(null);
        setText('');
      }
    } else if (caption) {
      if (await send({ kind: 'text', text: caption })) setText('');
    }
  };

  const pickFile = (file: File | undefined) => {
    if (fileInput.current) fileInput.current.value = '';
    if (!file) return;
    if (file.size > MAX_ATTACHMENT_BYTES) {
      onError(`El archivo supera ${sizeLabel(MAX_ATTACHMENT_BYTES)}.`);
      return;
    }
    setAttachment(file);
  };

  const toggleRecording = async () => {
    if (!voice.recording) {
      try {
        await voice.start();
      } catch {
        onError('No se pudo acceder al micrófono. Revisa los permisos del navegador.');
      }
      return;
    }
    const recording = await voice.stop();
    if (!recording) return;
    await send({ kind: 'media', dataBase64: await blobToBase64(recording.blob), fileName: recording.fileName, voice: true });
  };

  return (
    <form onSubmit={(event) => void submit(event)} className="border-t border-black/5 bg-[#f0f2f5] px-2 py-2">
      {attachment && (
        <div className="mb-2 flex items-center gap-2 rounded-lg bg-white px-3 py-2 text-sm shadow-sm" data-testid="pending-attachment">
          <svg viewBox="0 0 20 20" className="size-5 shrink-0 text-emerald-600" fill="currentColor" aria-hidden="true">
            <path d="M5 2h7l4 4v12H5zm7 1.5V7h3.5z" />
          </svg>
          <span className="min-w-0 flex-1 truncate font-medium text-slate-800">{attachment.name}</span>
          <span className="shrink-0 text-xs text-slate-500">{sizeLabel(attachment.size)}</span>
          <button type="button" onClick={() => setAttachment(null)} className="shrink-0 rounded px-1.5 text-xs font-semibold text-rose-600 hover:bg-rose-50">
            Quitar
          </button>
        </div>
      )}
      {voice.recording ? (
        <div className="flex items-center gap-2">
          <div className="flex h-10 flex-1 items-center gap-2 rounded-full bg-white px-4 text-sm text-slate-700" aria-live="polite">
            <span className="size-2.5 animate-pulse rounded-full bg-rose-500" aria-hidden="true" />
            Grabando… <span className="tabular-nums">{clock(voice.seconds)}</span>
          </div>
          <button
            type="button"
            onClick={() => void toggleRecording()}
            className="h-10 shrink-0 rounded-full bg-rose-600 px-4 text-sm font-semibold text-white hover:bg-rose-700"
          >
            Detener
          </button>
        </div>
      ) : (
        <div className="flex items-center gap-1">
          <label className={`${iconButton} ${busy ? 'pointer-events-none opacity-40' : 'cursor-pointer'}`} title="Adjuntar archivo">
            <svg viewBox="0 0 24 24" className="size-5" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" aria-hidden="true">
              <path d="m21 11.5-8.6 8.6a5.5 5.5 0 0 1-7.8-7.8l8.6-8.6a3.7 3.7 0 0 1 5.2 5.2l-8.6 8.6a1.8 1.8 0 0 1-2.6-2.6l7.9-7.9" />
            </svg>
            <input
              ref={fileInput}
              type="file"
              aria-label="Adjuntar archivo"
              className="sr-only"
              disabled={busy}
              onChange={(event) => pickFile(event.target.files?.[0])}
            />
          </label>
          <button
            type="button"
            className={iconButton}
            disabled={busy}
            aria-label="Enviar ubicación"
            title="Enviar ubicación"
            onClick={() => void send({ kind: 'location', ...SAMPLE_LOCATION })}
          >
            <svg viewBox="0 0 24 24" className="size-5" fill="none" stroke="currentColor" strokeWidth="1.8" aria-hidden="true">
              <path d="M12 21s7-6.2 7-11.5a7 7 0 1 0-14 0C5 14.8 12 21 12 21Z" />
              <circle cx="12" cy="9.5" r="2.5" />
            </svg>
          </button>
          <label className="sr-only" htmlFor={messageId}>
            Mensaje
          </label>
          <input
            id={messageId}
            value={text}
            onChange={(event) => setText(event.target.value)}
            disabled={disabled}
            autoComplete="off"
            placeholder={attachment ? 'Añade un comentario (opcional)' : 'Escribe un mensaje'}
            className="h-10 min-w-0 flex-1 rounded-full border-0 bg-white px-4 text-sm text-slate-900 outline-none placeholder:text-slate-400 focus:ring-2 focus:ring-emerald-200 disabled:bg-slate-100"
          />
          <button
            type="button"
            className={iconButton}
            disabled={busy || !canRecord}
            aria-label="Grabar nota de voz"
            title={canRecord ? 'Grabar nota de voz' : 'Este navegador no puede grabar audio'}
            onClick={() => void toggleRecording()}
          >
            <svg viewBox="0 0 24 24" className="size-5" fill="currentColor" aria-hidden="true">
              <path d="M12 3a3.5 3.5 0 0 0-3.5 3.5v5a3.5 3.5 0 0 0 7 0v-5A3.5 3.5 0 0 0 12 3Zm-6 8.5h-1.6a7.6 7.6 0 0 0 6.8 7.5V22h1.6v-3a7.6 7.6 0 0 0 6.8-7.5H18a6 6 0 0 1-12 0Z" />
            </svg>
          </button>
          <button
            type="submit"
            aria-label="Enviar"
            title="Enviar"
            disabled={busy || (!text.trim() && !attachment)}
            className="grid size-10 shrink-0 place-items-center rounded-full bg-emerald-600 text-white shadow-sm transition hover:bg-emerald-700 disabled:cursor-not-allowed disabled:bg-emerald-300"
          >
            {sending ? (
              <Spinner className="size-4" />
            ) : (
              <svg viewBox="0 0 24 24" className="size-5" fill="currentColor" aria-hidden="true">
                <path d="M3.4 20.4 21 12 3.4 3.6l-.01 6.5L15 12 3.39 13.9z" />
              </svg>
            )}
          </button>
        </div>
      )}
    </form>
  );
}
