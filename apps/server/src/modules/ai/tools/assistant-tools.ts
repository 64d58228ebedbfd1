import { webhookTools } from '@embudo/contracts/http/funnels';
import { addDays, localIsoString, wallClockOf } from '@embudo/contracts/time/wall-clock';
import { z } from 'zod';
import type { Db } from '../../../platform/db/database.ts';
import { AppError } from '../../../platform/errors/app-error.ts';
import { bookForCustomer, freeStartTimes, listProfessionals, listServices } from '../../agenda/index.ts';
import {
  announceNote,
  type ChatEvents,
  normaliseChoiceText,
  type OutboundDeps,
  scheduleAiMessage,
  type ScheduleDeps,
  storeSystemNote,
} from '../../chats/index.ts';
import { type BoardEvents, columnAssistant, columnsOfFunnel, findCard, placeCard, publishCardMove, switchCardAiOff } from '../../funnels/index.ts';
import type { AssistantConversation } from '../assistant/assistant.service.ts';
import type { OutboundHttp } from '../../../platform/outbound-http/outbound-http.guard.ts';
import type { AiTool } from '../model/model-port.ts';
import { webhookTool } from './flow-tools.ts';

/** The note the assistant leaves when it hands the chat to a person. */
export const handOverNote = (reason: string) => `La IA pasó la conversación a una persona: ${reason}`;
const ASSISTANT_AUTHOR = 'Asistente IA';
const MAX_SLOTS = 10;
const DAYS_LOOKED_AHEAD = 7;

export interface AssistantToolDeps {
  db: Db;
  chatEvents: ChatEvents;
  boardEvents: Pick<BoardEvents, 'cardUpdated' | 'cardMoved'>;
  domainEvents: OutboundDeps['domainEvents'];
  clock: () => Date;
  /** The chats module's scheduled sends, for schedule_message. */
  schedule: ScheduleDeps;
  /** The outbound guard, for the column's webhook tools. */
  http: OutboundHttp;
}

/** Arguments the model sent, checked; a refusal goes back to the model as `{ error }` in Spanish, never as a crash. */
function parsed<T extends z.ZodType>(
  schema: T,
  args: Record<string, unknown>,
): { ok: true; value: z.output<T> } | { ok: false; error: Record<string, unknown> } {
  const result = schema.safeParse(args);
  if (result.success) return { ok: true, value: result.data };
  return {
    ok: false,
    error: { error: `Argumentos inválidos: ${result.error.issues.map((issue) => `${issue.path.join('.') || 'argumentos'}: ${issue.message}`).join('; ')}` },
  };
}

const sameName = (left: string, right: string) => normaliseChoiceText(left) === normaliseChoiceText(right);
const nameMatches = (candidate: string, wanted: string) => {
  const a = normaliseChoiceText(candidate);
  const b = normaliseChoiceText(wanted);
  return a === b || a.includes(b) || b.includes(a);
};

/**
 * The tools the column assistant offers the model for one chat (issue 15 item 2), bound to that chat's company, card and
 * funnel. They act through the owning modules' services, so a move, a booking or a hand-over is the same as one made
 * on the board, the agenda or the chat switch.
 */
export async function assistantTools(deps: AssistantToolDeps, conversation: AssistantConversation): Promise<AiTool[]> {
  const columns = await columnsOfFunnel(deps.db, conversation.tenantId, conversation.funnelId);
  const otherColumns = columns.filter((column) => column.id !== conversation.columnId);
  const tools: AiTool[] = [
    handOverToPerson(deps, conversation),
    scheduleMessage(deps, conversation),
    findFreeSlots(deps, conversation),
    bookAppointment(deps, conversation),
  ];
  if (otherColumns.length > 0) tools.unshift(moveToColumn(deps, conversation, otherColumns));
  // The column's webhooks (issue 15): webhook_1, webhook_2… in the order the column lists them.
  const webhooks = webhookTools((await columnAssistant(deps.db, conversation.tenantId, conversation.columnId))?.assistant?.tools ?? []);
  webhooks.forEach((webhook, index) => tools.push(webhookTool(`webhook_${index + 1}`, webhook, { http: deps.http, report: () => undefined })));
  return tools;
}

function moveToColumn(deps: AssistantToolDeps, conversation: AssistantConversation, columns: { id: string; title: string }[]): AiTool {
  return {
    name: 'move_to_column',
    description: 'Mueve este chat a otra columna del embudo (por ejemplo, cuando el cliente quiere comprar o necesita soporte).',
    parameters: {
      type: 'object',
      properties: { column: { type: 'string', description: 'Nombre de la columna de destino', enum: columns.map((column) => column.title) } },
      required: ['column'],
    },
    async execute(args) {
      const input = parsed(z.object({ column: z.string().min(1) }), args);
      if (!input.ok) return input.error;
      const target =
        columns.find((column) => sameName(column.title, input.value.column)) ?? columns.find((column) => nameMatches(column.title, input.value.column));
      if (!target)
        return { error: `No existe la columna "${input.value.column}" en este embudo. Columnas: ${columns.map((column) => column.title).join(', ')}.` };
      const card = await findCard(deps.db, conversation.tenantId, conversation.cardId);
      if (!card) return { error: 'El chat ya no existe.' };
      const moved = await deps.db.transaction(async (tx) => {
        const row = await placeCard(tx, conversation.tenantId, card.id, { columnId: target.id, funnelId: conversation.funnelId });
        if (row) await publishCardMove(deps.domainEvents, tx, conversation.tenantId, { cardId: card.id, from: card, to: row, movedBy: 'ai' });
        return row;
      });
      if (moved) deps.boardEvents.cardMoved(conversation.tenantId, card.funnelId, moved);
      return { ok: true, column: target.title };
    },
  };
}

function handOverToPerson(deps: AssistantToolDeps, conversation: AssistantConversation): AiTool {
  return {
    name: 'hand_over_to_person',
    description: 'Pasa la conversación a una persona del equipo: la IA deja de responder en este chat. Úsala si el cliente lo pide o si no puedes ayudarle.',
    parameters: { type: 'object', properties: { reason: { type: 'string', description: 'Por qué pasa a una persona' } }, required: ['reason'] },
    async execute(args) {
      const input = parsed(z.object({ reason: z.string().trim().min(1).max(500) }), args);
      if (!input.ok) return input.error;
      const note = await deps.db.transaction(async (tx) => {
        await switchCardAiOff({ events: deps.boardEvents }, tx, conversation.tenantId, conversation.cardId, 'handed_over');
        return storeSystemNote(tx, {
          tenantId: conversation.tenantId,
          cardId: conversation.cardId,
          authorName: ASSISTANT_AUTHOR,
          text: handOverNote(input.value.reason),
        });
      });
      await announceNote(deps.chatEvents, conversation.tenantId, note);
      return { ok: true };
    },
  };
}

function scheduleMessage(deps: AssistantToolDeps, conversation: AssistantConversation): AiTool {
  return {
    name: 'schedule_message',
    description:
      'Programa un mensaje de WhatsApp para este cliente (por ejemplo, un recordatorio). Solo dentro de la ventana de 24 horas desde su último mensaje.',
    parameters: {
      type: 'object',
      properties: {
        text: { type: 'string', description: 'El mensaje' },
        sendAt: { type: 'string', description: `Fecha y hora ISO-8601 con zona horaria (la empresa está en ${conversation.timeZone}), en el futuro` },
      },
      required: ['text', 'sendAt'],
    },
    async execute(args) {
      const input = parsed(z.object({ text: z.string().trim().min(1).max(4096), sendAt: z.iso.datetime({ offset: true }) }), args);
      if (!input.ok) return input.error;
      const card = await findCard(deps.db, conversation.tenantId, conversation.cardId);
      if (!card) return { error: 'El chat ya no existe.' };
      try {
        const item = await scheduleAiMessage(
          deps.schedule,
          { tenantId: conversation.tenantId, card, text: input.value.text, scheduledFor: new Date(input.value.sendAt), authorName: ASSISTANT_AUTHOR },
          deps.clock(),
        );
        return { ok: true, sendAt: item.scheduledFor };
      } catch (error) {
        if (error instanceof AppError) return { error: error.message };
        throw error;
      }
    },
  };
}

interface Offer {
  start: string;
  end: string;
  professional: string;
  service: string;
  professionalId: string;
  serviceId: string;
}

/** Free start times as the Agenda computes them (weekly hours, blocks, other appointments, company time zone). */
async function freeOffers(deps: AssistantToolDeps, conversation: AssistantConversation, wanted: { date?: string; service?: string; professional?: string }) {
  const services = await listServices(deps.db, conversation.tenantId);
  const service = wanted.service ? services.find((candidate) => nameMatches(candidate.name, wanted.service!)) : services[0];
  if (!service)
    return {
      error:
        services.length === 0
          ? 'La empresa no tiene servicios en su agenda.'
          : `No hay un servicio llamado "${wanted.service}". Servicios: ${services.map((entry) => entry.name).join(', ')}.`,
    };
  const professionals = (await listProfessionals(deps.db, conversation.tenantId)).filter((candidate) => candidate.serviceIds.includes(service.id));
  const chosen = wanted.professional ? professionals.filter((candidate) => nameMatches(candidate.name, wanted.professional!)) : professionals;
  if (chosen.length === 0)
    return { error: wanted.professional ? `Nadie llamado "${wanted.professional}" ofrece ${service.name}.` : `Nadie ofrece ${service.name} por ahora.` };
  const now = deps.clock();
  const today = wallClockOf(now, conversation.timeZone).date;
  const days = wanted.date ? [wanted.date] : Array.from({ length: DAYS_LOOKED_AHEAD }, (_, index) => addDays(today, index));
  const offers: Offer[] = [];
  for (const date of days) {
    for (const professional of chosen) {
      const free = await freeStartTimes(deps.db, conversation.tenantId, { professionalId: professional.id, serviceId: service.id, date }, now);
      for (const slot of free.slots) {
        // In the company's wall-clock time with its offset: the model repeats it to the customer as it reads it.
        offers.push({
          start: localIsoString(new Date(slot.startTime), conversation.timeZone),
          end: localIsoString(new Date(slot.endTime), conversation.timeZone),
          professional: professional.name,
          service: service.name,
          professionalId: professional.id,
          serviceId: service.id,
        });
      }
    }
    if (offers.length >= MAX_SLOTS) break;
  }
  offers.sort((a, b) => Date.parse(a.start) - Date.parse(b.start));
  return { offers };
}

function findFreeSlots(deps: AssistantToolDeps, conversation: AssistantConversation): AiTool {
  return {
    name: 'find_free_slots',
    description: 'Busca horarios libres en la agenda de la empresa para un servicio, opcionalmente en una fecha y con un profesional.',
    parameters: {
      type: 'object',
      properties: {
        date: { type: 'string', description: `Fecha YYYY-MM-DD en la zona horaria de la empresa (${conversation.timeZone}); sin fecha, los próximos días` },
        service: { type: 'string', description: 'Nombre del servicio' },
        professional: { type: 'string', description: 'Nombre del profesional' },
      },
    },
    async execute(args) {
      const input = parsed(
        z.object({
          date: z
            .string()
            .regex(/^\d{4}-\d{2}-\d{2}$/, 'usa YYYY-MM-DD')
            .optional(),
          service: z.string().optional(),
          professional: z.string().optional(),
        }),
        args,
      );
      if (!input.ok) return input.error;
      const found = await freeOffers(deps, conversation, input.value);
      if ('error' in found) return { error: found.error };
      return { slots: found.offers.slice(0, MAX_SLOTS).map(({ start, end, professional, service }) => ({ start, end, professional, service })) };
    },
  };
}

function bookAppointment(deps: AssistantToolDeps, conversation: AssistantConversation): AiTool {
  return {
    name: 'book_appointment',
    description: 'Agenda una cita para este cliente en un horario libre que devolvió find_free_slots.',
    parameters: {
      type: 'object',
      properties: {
        start: { type: 'string', description: 'Inicio ISO-8601 exactamente como lo devolvió find_free_slots' },
        service: { type: 'string', description: 'Nombre del servicio' },
        professional: { type: 'string', description: 'Nombre del profesional' },
        customerName: { type: 'string', description: 'Nombre del cliente' },
      },
      required: ['start'],
    },
    async execute(args) {
      const input = parsed(
        z.object({
          start: z.iso.datetime({ offset: true }),
          service: z.string().optional(),
          professional: z.string().optional(),
          customerName: z.string().max(120).optional(),
        }),
        args,
      );
      if (!input.ok) return input.error;
      const start = Date.parse(input.value.start);
      const date = wallClockOf(new Date(start), conversation.timeZone).date;
      // Checked again now: the time may have been taken since it was offered.
      const found = await freeOffers(deps, conversation, { date, service: input.value.service, professional: input.value.professional });
      if ('error' in found) return { error: found.error };
      const offer = found.offers.find((candidate) => Date.parse(candidate.start) === start);
      if (!offer) return { error: 'Ese horario ya no está libre. Busca otro con find_free_slots.' };
      const card = await findCard(deps.db, conversation.tenantId, conversation.cardId);
      if (!card) return { error: 'El chat ya no existe.' };
      try {
        const appointment = await bookForCustomer(
          { db: deps.db, tenantId: conversation.tenantId, timezone: conversation.timeZone },
          {
            clientName: input.value.customerName?.trim() || card.title,
            clientWhatsapp: card.phone,
            professionalId: offer.professionalId,
            serviceId: offer.serviceId,
            start: new Date(offer.start),
            end: new Date(offer.end),
          },
        );
        return { ok: true, appointment: { id: appointment.id, start: offer.start, end: offer.end, professional: offer.professional, service: offer.service } };
      } catch (error) {
        if (error instanceof AppError) return { error: error.message };
        throw error;
      }
    },
  };
}
