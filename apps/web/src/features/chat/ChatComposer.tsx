import { WINDOW_CLOSED_FILES, WINDOW_CLOSED_TEXT } from '@embudo/contracts/http/chats';
import { useRef, useState, type KeyboardEvent } from 'react';
import { useVoiceRecorder } from '../sandbox-phone/use-voice-recorder.ts';
import { useToast } from '../../shared/ui/use-toast.ts';
import type { ChatMessage } from './chat.api.ts';
import { senderLabel } from './MessageBubble.tsx';
import { isSubmitEnter } from './enter-submits.ts';
import { QuickRepliesMenu } from './QuickRepliesMenu.tsx';
import { icon, IconButton } from './ComposerIconButton.tsx';
import { CopilotActions } from './CopilotActions.tsx';

export const MICROPHONE_DENIED = 'No se pudo acceder al micrófono. Por favor, revisa los permisos.';

type VoiceState = 'idle' | 'recording' | 'stopped';

interface ChatComposerProps {
  cardId: string;
  columnId: string;
  windowOpen: boolean;
  replyTo: ChatMessage | null;
  onCancelReply: () => void;
  onSendText: (text: string) => void;
  onSendFile: (file: Blob, fileName: string, caption: string) => void;
  onOpenTemplate: () => void;
  onOpenSchedule: () => void;
}

/** The chat footer: quick replies, reply-to preview, attach, template, schedule, voice and send. */
export function ChatComposer({
  cardId,
  columnId,
  windowOpen,
  replyTo,
  onCancelReply,
  onSendText,
  onSendFile,
  onOpenTemplate,
  onOpenSchedule,
}: ChatComposerProps) {
  const toast = useToast();
  const [text, setText] = useState('');
  const [voice, setVoice] = useState<VoiceState>('idle');
  const fileInput = useRef<HTMLInputElement>(null);
  const textArea = useRef<HTMLTextAreaElement>(null);
  const recorder = useVoiceRecorder();

  const send = () => {
    const trimmed = text.trim();
    if (!trimmed) return;
    if (!windowOpen) {
      toast.error(WINDOW_CLOSED_TEXT);
      return;
    }
    onSendText(trimmed);
    setText('');
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (isSubmitEnter(event)) {
      event.preventDefault();
      send();
    }
  };

  const onFile = (file: File | undefined) => {
    if (!file) return;
    if (!windowOpen) {
      toast.error(WINDOW_CLOSED_FILES);
      return;
    }
    onSendFile(file, file.name, text.trim());
    setText('');
  };

  const startRecording = async () => {
    try {
      await recorder.start();
      setVoice('recording');
    } catch {
      setVoice('idle');
      toast.error(MICROPHONE_DENIED);
    }
  };

  const stopRecording = async () => {
    setVoice('stopped');
    const recording = await recorder.stop();
    setVoice('idle');
    if (!recording) return;
    // Spec 01 §4: voice notes are named with a timestamp; the server converts them to ogg/opus.
    const extension = recording.fileName.split('.').pop() ?? 'webm';
    onSendFile(recording.blob, `nota-de-voz-${Date.now()}.${extension}`, '');
  };

  return (
    <div className="border-t border-slate-200 bg-white px-3 py-2">
      {replyTo && (
        <div data-testid="reply-preview" className="mb-2 flex items-start gap-2 rounded-lg border-l-4 border-emerald-500 bg-slate-50 px-3 py-2 text-xs">
          <div className="min-w-0 flex-1">
            <p className="font-semibold text-emerald-700">Respondiendo a {senderLabel(replyTo.sender)}</p>
            <p className="truncate text-slate-600">{replyTo.text || replyTo.type}</p>
          </div>
          <button type="button" onClick={onCancelReply} aria-label="Cancelar respuesta" className="text-slate-400 hover:text-slate-700">
            ✕
          </button>
        </div>
      )}
      {!windowOpen && (
        <p role="status" className="mb-2 rounded-lg bg-amber-50 px-3 py-2 text-xs text-amber-800 ring-1 ring-amber-200">
          {WINDOW_CLOSED_TEXT}
        </p>
      )}
      {/* The tools get a row of their own, so the message box has the footer's whole width and its
          placeholders fit on one line even on a phone. */}
      <div data-testid="composer-tools" className="mb-1 flex items-center gap-1">
        <QuickRepliesMenu
          columnId={columnId}
          disabled={!windowOpen}
          onPick={(reply) => {
            setText(reply.text);
            textArea.current?.focus();
          }}
        />
        <IconButton
          label="Adjuntar archivo"
          title={windowOpen ? 'Adjuntar archivo' : WINDOW_CLOSED_FILES}
          disabled={!windowOpen}
          onClick={() => fileInput.current?.click()}
        >
          {icon('m21 11-8.6 8.6a5 5 0 0 1-7-7L14 4a3.3 3.3 0 0 1 4.7 4.7l-8.6 8.6a1.7 1.7 0 0 1-2.4-2.4L15.6 7')}
        </IconButton>
        <input
          ref={fileInput}
          type="file"
          hidden
          data-testid="attach-input"
          onChange={(event) => {
            onFile(event.target.files?.[0]);
            event.target.value = '';
          }}
        />
        <IconButton label="Enviar plantilla" onClick={onOpenTemplate}>
          {icon('M4 4h16v16H4zM8 9h8M8 13h5')}
        </IconButton>
        <IconButton label="Programar mensaje" onClick={onOpenSchedule}>
          {icon('M12 7v5l3 2M21 12a9 9 0 1 1-18 0 9 9 0 0 1 18 0')}
        </IconButton>
        <span className="mx-1 h-5 w-px bg-slate-200" aria-hidden="true" />
        <CopilotActions
          cardId={cardId}
          onDraft={(draft) => {
            setText(draft);
            textArea.current?.focus();
          }}
        />
      </div>
      <div className="flex items-end gap-1">
        {voice === 'idle' ? (
          <textarea
            ref={textArea}
            rows={1}
            value={text}
            disabled={!windowOpen}
            onChange={(event) => setText(event.target.value)}
            onKeyDown={onKeyDown}
            placeholder={windowOpen ? 'Escribe un mensaje…' : 'Ventana cerrada: envía una plantilla'}
            title={windowOpen ? undefined : WINDOW_CLOSED_TEXT}
            aria-label="Mensaje"
            className="max-h-32 min-h-9 flex-1 resize-none rounded-2xl border border-slate-300 px-3 py-2 text-sm outline-none focus:border-emerald-500 disabled:bg-slate-100"
          />
        ) : (
          <div
            data-testid="voice-recording"
            data-state={voice}
            className="flex h-9 flex-1 items-center gap-2 rounded-2xl bg-rose-50 px-3 text-sm text-rose-700"
          >
            <span className="size-2 animate-pulse rounded-full bg-rose-500" />
            {voice === 'recording' ? `Grabando… ${recorder.seconds}s` : 'Enviando nota de voz…'}
          </div>
        )}
        {voice === 'recording' ? (
          <IconButton label="Detener grabación" onClick={() => void stopRecording()}>
            <span className="size-3.5 rounded-sm bg-rose-600" />
          </IconButton>
        ) : text.trim() === '' ? (
          <IconButton
            label="Grabar nota de voz"
            title={windowOpen ? 'Grabar nota de voz' : WINDOW_CLOSED_FILES}
            disabled={!windowOpen || voice !== 'idle'}
            onClick={() => void startRecording()}
          >
            {icon('M12 3a3 3 0 0 0-3 3v6a3 3 0 0 0 6 0V6a3 3 0 0 0-3-3zM5 11a7 7 0 0 0 14 0M12 18v3')}
          </IconButton>
        ) : (
          <IconButton label="Enviar" disabled={!windowOpen} onClick={send}>
            {icon('m4 12 16-8-6 16-2-7z')}
          </IconButton>
        )}
      </div>
    </div>
  );
}
