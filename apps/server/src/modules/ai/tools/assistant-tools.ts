import { webhookTools } from '@embudo/contracts/http/funnels';
import { addDays, isDateKey, localIsoString, wallClockOf } from '@embudo/contracts/time/wall-clock';
import { z } from 'zod';
import type { Db } from '../../../platform/db/database.ts';
import { AppError } from '../../../platform/errors/app-error.ts';
import { bookForCustomer, freeStartsOver, listProfessionals, listServices } from '../../agenda/index.ts';
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
import { type AiTool, ToolFailure } from '../model/model-port.ts';
import { webhookTool } from './flow-tools.ts';
import { ASSISTANT_AUTHOR, type EffectRecorder } from './tool-ledger.ts';

/** The note the assistant leaves when it hands the chat to a person. */
export const handOverNote = (reason: string) => `La IA pasó la conversación a una persona: ${reason}`;
/** What the model may tell the customer when the time it offered was taken meanwhile. */
export const SLOT_TAKEN = 'Ese horario ya no está libre.';
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

/** Arguments the model sent, checked; a refusal is a tool failure (a note for the team), never a crash. */
function parsed<T extends z.ZodType>(schema: T, args: Record<string, unknown>): z.output<T> {
  const result = schema.safeParse(args);
  if (result.success) return result.data;
  throw new ToolFailure(`Argumentos inválidos: ${result.error.issues.map((issue) => `${issue.path.join('.') || 'argumentos'}: ${issue.message}`).join('; ')}`);
}

/** The chat the tool acts on, as it is now. */
async function currentCard(deps: AssistantToolDeps, conversation: AssistantConversation) {
  const card = await findCard(deps.db, conversation.tenantId, conversation.cardId);
  if (!card) throw new ToolFailure('El chat ya no existe.');
  return card;
}

/** A refusal of the owning module (an AppError) is a tool failure; anything else is a fault and propagates as one. */
async function refusalsAsFailures<T>(work: () => Promise<T>, advice?: (error: AppError) => string | undefined): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof AppError) throw new ToolFailure(error.message, advice?.(error));
    throw error;
  }
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
 * on the board, the agenda or the chat switch. A move, a booking or a scheduled text records what it did in the
 * answer's ledger, in the transaction that did it, so a dropped answer can take it back (docs/decisions/0028).
 */
export async function assistantTools(deps: AssistantToolDeps, conversation: AssistantConversation, ledger: EffectRecorder): Promise<AiTool[]> {
  const columns = await columnsOfFunnel(deps.db, conversation.tenantId, conversation.funnelId);
  const otherColumns = columns.filter((column) => column.id !== conversation.columnId);
  const tools: AiTool[] = [
    handOverToPerson(deps, conversation),
    scheduleMessage(deps, conversation, ledger),
    findFreeSlots(deps, conversation),
    bookAppointment(deps, conversation, ledger),
  ];
  if (otherColumns.length > 0) tools.unshift(moveToColumn(deps, conversation, otherColumns, ledger));
  // The column's webhooks (issue 15): webhook_1, webhook_2… in the order the column lists them.
  const webhooks = webhookTools((await columnAssistant(deps.db, conversation.tenantId, conversation.columnId))?.assistant?.tools ?? []);
  webhooks.forEach((webhook, index) => tools.push(webhookTool(`webhook_${index + 1}`, webhook, { http: deps.http, report: () => undefined })));
  return tools;
}

function moveToColumn(deps: AssistantToolDeps, conversation: AssistantConversation, columns: { id: string; title: string }[], ledger: EffectRecorder): AiTool {
  return {
    name: 'move_to_column',
    description: 'Mueve este chat a otra columna del embudo (por ejemplo, cuando el cliente quiere comprar o necesita soporte).',
    parameters: {
      type: 'object',
      properties: { column: { type: 'string', description: 'Nombre de la columna de destino', enum: columns.map((column) => column.title) } },
      required: ['column'],
    },
    async execute(args, call) {
      const input = parsed(z.object({ column: z.string().min(1) }), args);
      const target = columns.find((column) => sameName(column.title, input.column)) ?? columns.find((column) => nameMatches(column.title, input.column));
      if (!target)
        throw new ToolFailure(`No existe la columna "${input.column}" en este embudo. Columnas: ${columns.map((column) => column.title).join(', ')}.`);
      const card = await currentCard(deps, conversation);
      const moved = await deps.db.transaction(async (tx) => {
        const row = await placeCard(tx, conversation.tenantId, card.id, { columnId: target.id, funnelId: conversation.funnelId });
        if (row && row.columnId !== card.columnId) {
          await publishCardMove(deps.domainEvents, tx, conversation.tenantId, { cardId: card.id, from: card, to: row, movedBy: 'ai' });
          const from = { columnId: card.columnId, funnelId: card.funnelId };
          await ledger.recordEffect(tx, call.index, { kind: 'card-move', from, to: { columnId: row.columnId, funnelId: row.funnelId } });
        }
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
      const note = await deps.db.transaction(async (tx) => {
        await switchCardAiOff({ events: deps.boardEvents }, tx, conversation.tenantId, conversation.cardId, 'handed_over');
        return storeSystemNote(tx, {
          tenantId: conversation.tenantId,
          cardId: conversation.cardId,
          authorName: ASSISTANT_AUTHOR,
          text: handOverNote(input.reason),
        });
      });
      await announceNote(deps.chatEvents, conversation.tenantId, note);
      return { ok: true };
    },
  };
}

function scheduleMessage(deps: AssistantToolDeps, conversation: AssistantConversation, ledger: EffectRecorder): AiTool {
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
    async execute(args, call) {
      const input = parsed(z.object({ text: z.string().trim().min(1).max(4096), sendAt: z.iso.datetime({ offset: true }) }), args);
      const card = await currentCard(deps, conversation);
      const item = await refusalsAsFailures(() =>
        scheduleAiMessage(
          deps.schedule,
          { tenantId: conversation.tenantId, card, text: input.text, scheduledFor: new Date(input.sendAt), authorName: ASSISTANT_AUTHOR },
          deps.clock(),
          (tx, scheduledId) => ledger.recordEffect(tx, call.index, { kind: 'scheduled-message', scheduledId }),
        ),
      );
      return { ok: true, sendAt: item.scheduledFor };
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

/** What the agenda offers for a request, or what it has instead when the service or the professional asked for is not there. */
type Offers = { offers: Offer[] } | { services: string[] } | { professionals: string[] };

/**
 * Free start times as the Agenda computes them (weekly hours, blocks, other appointments, company time zone), for every
 * day asked at once: the catalogue, blocks and appointments are read in a fixed number of statements, however many
 * professionals and days. A company without services, or a service nobody offers, is a setting for the team to fix.
 */
async function freeOffers(
  deps: Pick<AssistantToolDeps, 'db' | 'clock'>,
  conversation: AssistantConversation,
  wanted: { date?: string; service?: string; professional?: string },
): Promise<Offers> {
  const services = await listServices(deps.db, conversation.tenantId);
  if (services.length === 0) throw new ToolFailure('La empresa no tiene servicios en su agenda.');
  const service = wanted.service ? services.find((candidate) => nameMatches(candidate.name, wanted.service!)) : services[0];
  if (!service) return { services: services.map((entry) => entry.name) };
  const professionals = (await listProfessionals(deps.db, conversation.tenantId)).filter((candidate) => candidate.serviceIds.includes(service.id));
  if (professionals.length === 0) throw new ToolFailure(`Nadie ofrece ${service.name} en la agenda.`);
  const chosen = wanted.professional ? professionals.filter((candidate) => nameMatches(candidate.name, wanted.professional!)) : professionals;
  if (chosen.length === 0) return { professionals: professionals.map((entry) => entry.name) };
  const now = deps.clock();
  const today = wallClockOf(now, conversation.timeZone).date;
  const dates = wanted.date ? [wanted.date] : Array.from({ length: DAYS_LOOKED_AHEAD }, (_, index) => addDays(today, index));
  const free = await freeStartsOver(
    deps.db,
    conversation.tenantId,
    { professionals: chosen, durationMinutes: service.duration, dates, timezone: conversation.timeZone },
    now,
  );
  const names = new Map(chosen.map((professional) => [professional.id, professional.name]));
  return {
    // In the company's wall-clock time with its offset: the model repeats it to the customer as it reads it.
    offers: free.map((slot) => ({
      start: localIsoString(slot.start, conversation.timeZone),
      end: localIsoString(slot.end, conversation.timeZone),
      professional: names.get(slot.professionalId)!,
      service: service.name,
      professionalId: slot.professionalId,
      serviceId: service.id,
    })),
  };
}

/** find_free_slots: reads only, so it needs only the database and the clock. */
export function findFreeSlots(deps: Pick<AssistantToolDeps, 'db' | 'clock'>, conversation: AssistantConversation): AiTool {
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
          date: z.string().refine(isDateKey, 'usa una fecha YYYY-MM-DD').optional(),
          service: z.string().optional(),
          professional: z.string().optional(),
        }),
        args,
      );
      const found = await freeOffers(deps, conversation, input);
      // An unknown service or professional is an answer, not a failure: the model may offer the ones there are.
      if (!('offers' in found)) return { slots: [], ...found };
      return { slots: found.offers.slice(0, MAX_SLOTS).map(({ start, end, professional, service }) => ({ start, end, professional, service })) };
    },
  };
}

function bookAppointment(deps: AssistantToolDeps, conversation: AssistantConversation, ledger: EffectRecorder): AiTool {
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
    async execute(args, call) {
      const input = parsed(
        z.object({
          start: z.iso.datetime({ offset: true }),
          service: z.string().optional(),
          professional: z.string().optional(),
          customerName: z.string().max(120).optional(),
        }),
        args,
      );
      const start = Date.parse(input.start);
      const date = wallClockOf(new Date(start), conversation.timeZone).date;
      // Checked again now: the time may have been taken since it was offered.
      const found = await freeOffers(deps, conversation, { date, service: input.service, professional: input.professional });
      if ('services' in found) throw new ToolFailure(`No hay un servicio llamado "${input.service}". Servicios: ${found.services.join(', ')}.`);
      if ('professionals' in found)
        throw new ToolFailure(`Nadie llamado "${input.professional}" ofrece ese servicio. Profesionales: ${found.professionals.join(', ')}.`);
      const offer = found.offers.find((candidate) => Date.parse(candidate.start) === start);
      if (!offer) throw new ToolFailure(`El horario ${input.start} no está libre o no es uno de los ofrecidos.`, SLOT_TAKEN);
      const card = await currentCard(deps, conversation);
      const appointment = await refusalsAsFailures(
        () =>
          bookForCustomer(
            { db: deps.db, tenantId: conversation.tenantId, timezone: conversation.timeZone },
            {
              clientName: input.customerName?.trim() || card.title,
              clientWhatsapp: card.phone,
              professionalId: offer.professionalId,
              serviceId: offer.serviceId,
              start: new Date(offer.start),
              end: new Date(offer.end),
            },
            (tx, booked) => ledger.recordEffect(tx, call.index, { kind: 'appointment', appointmentId: booked.id }),
          ),
        // Taken in the meantime: the clash names another customer, which only the team may read.
        (error) => (error.status === 409 ? SLOT_TAKEN : undefined),
      );
      return { ok: true, appointment: { id: appointment.id, start: offer.start, end: offer.end, professional: offer.professional, service: offer.service } };
    },
  };
}
