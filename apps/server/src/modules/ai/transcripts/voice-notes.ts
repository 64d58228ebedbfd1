import { planIncludes } from '@embudo/contracts/http/plans';
import type { Db, Tx } from '../../../platform/db/database.ts';
import { defineListener, type EventPublisher, type ListenerContext } from '../../../platform/events/index.ts';
import type { Logger } from '../../../platform/logger/logger.ts';
import type { MediaStorage } from '../../../platform/storage/media-storage.ts';
import { announceTranscript, type ChatEvents, findVoiceNote, saveTranscript } from '../../chats/index.ts';
import { findTenantById } from '../../tenants/index.ts';
import { AiModelError, type AiModel, type AiUsage } from '../model/model-port.ts';

/** Failures worth another attempt: the model may answer later. The others will fail the same way again. */
const TRANSIENT: ReadonlySet<AiModelError['kind']> = new Set(['quota', 'timeout', 'unavailable']);
export const TRANSCRIBE_MAX_ATTEMPTS = 4;

export interface VoiceNoteDeps {
  db: Db;
  storage: Pick<MediaStorage, 'read'>;
  model: AiModel | null;
  domainEvents: EventPublisher;
  chatEvents: ChatEvents;
  log: Pick<Logger, 'warn' | 'error'>;
  /** Counts the model's tokens for the company's usage. */
  recordUsage?: (tx: Tx, usage: { tenantId: string; cardId: string; model: string; usage: AiUsage; latencyMs: number }) => Promise<void>;
}

/**
 * A customer's voice note is written down once its file is stored (issue 15 item 6): the transcript shows under the
 * player and the assistant reads it as the customer's words. Only companies whose plan includes the AI assistant, and
 * only with a model configured. Whatever happens, `voice-note.transcribed` follows, so the assistant never waits forever.
 */
export async function transcribeVoiceNote(deps: VoiceNoteDeps, tenantId: string, messageId: string, ctx: ListenerContext) {
  const note = await deps.db.transaction((tx) => findVoiceNote(tx, tenantId, messageId));
  if (!note || note.transcript !== null) return;
  const tenant = await findTenantById(deps.db, tenantId);
  if (!tenant || !deps.model || !planIncludes(tenant.subscriptionPlan, 'ai_assistant')) return finish(deps, tenantId, note, null, ctx);

  const audio = await deps.storage.read(note.mediaUrl);
  if (!audio) {
    deps.log.warn({ tenantId, messageId }, 'voice note file missing: not transcribed');
    return finish(deps, tenantId, note, null, ctx);
  }
  const started = Date.now();
  try {
    const transcript = await deps.model.transcribe({ data: audio, mimeType: note.mediaMime });
    return await finish(deps, tenantId, note, { ...transcript, latencyMs: Date.now() - started }, ctx);
  } catch (error) {
    const transient = error instanceof AiModelError && TRANSIENT.has(error.kind);
    if (transient && ctx.attempt < TRANSCRIBE_MAX_ATTEMPTS) throw error;
    deps.log.warn({ err: error, tenantId, messageId }, 'voice note not transcribed');
    return finish(deps, tenantId, note, null, ctx);
  }
}

async function finish(
  deps: VoiceNoteDeps,
  tenantId: string,
  note: { id: string; cardId: string },
  transcript: { text: string; usage: AiUsage; model: string; latencyMs: number } | null,
  ctx: ListenerContext,
) {
  const text = transcript?.text.trim() ?? '';
  const saved = await deps.db.transaction(async (tx) => {
    if (!(await ctx.recordDelivery(tx))) return undefined;
    const row = text ? await saveTranscript(tx, tenantId, note.id, text) : undefined;
    if (transcript && deps.recordUsage) {
      await deps.recordUsage(tx, { tenantId, cardId: note.cardId, model: transcript.model, usage: transcript.usage, latencyMs: transcript.latencyMs });
    }
    await deps.domainEvents.publish(tx, {
      type: 'voice-note.transcribed',
      tenantId,
      payload: { messageId: note.id, cardId: note.cardId, transcribed: Boolean(row) },
    });
    return row;
  });
  if (saved) await announceTranscript(deps.chatEvents, saved);
}

export function createVoiceNoteListeners(deps: VoiceNoteDeps) {
  return [
    defineListener({
      name: 'ai.transcribe-voice-note',
      event: 'voice-note.stored',
      maxAttempts: TRANSCRIBE_MAX_ATTEMPTS,
      backoff: { baseMs: 5_000, maxMs: 60_000 },
      handle: (event, ctx) => transcribeVoiceNote(deps, event.tenantId, event.payload.messageId, ctx),
    }),
  ];
}
