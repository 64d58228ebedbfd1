import type { ScheduleData } from '@embudo/contracts/flows/nodes/schedule';
import { chosenFlowOption } from '../option-choice.ts';
import { next, type NodeContext, type NodeOutcome, type NodeExecutor, type SlotOffer } from '../node-executor.ts';

/** Where the node keeps the times it offered while it waits for the customer's choice. */
export const SCHEDULE_OFFER_VARIABLE = 'schedule_offer';
/** The booked time, for the nodes after this one: "martes 10 de marzo a las 09:00 (Corte con Lucía)". */
export const APPOINTMENT_VARIABLE = 'appointment';

export const scheduleTexts = {
  offer: (event: string) => `Para agendar ${event}, elige uno de estos horarios disponibles:`,
  noSlots: (event: string) => `No tenemos horarios libres para ${event} en los próximos días. Una persona del equipo te escribirá para coordinar tu cita.`,
  noneChosen: 'Una persona del equipo te escribirá para coordinar tu cita en otro horario.',
  taken: 'Ese horario se acaba de ocupar.',
  booked: (slot: SlotOffer) => `¡Listo! Tu cita quedó agendada para el ${slot.description}.`,
};

const eventOf = (data: ScheduleData, ctx: NodeContext) => ctx.interpolate(data.eventType).trim() || 'tu cita';

function handOver(ctx: NodeContext, text: string, why: string): NodeOutcome {
  delete ctx.variables[SCHEDULE_OFFER_VARIABLE];
  ctx.say({ type: 'text', text });
  ctx.report(`[📅 ${why}: el chat pasa a una persona y el bot deja de responder]`);
  return { kind: 'stop', status: 'human' };
}

function offeredSlots(ctx: NodeContext): SlotOffer[] {
  try {
    const parsed: unknown = JSON.parse(ctx.variables[SCHEDULE_OFFER_VARIABLE] ?? '[]');
    return Array.isArray(parsed) ? (parsed as SlotOffer[]) : [];
  } catch {
    return [];
  }
}

const asOptions = (slots: SlotOffer[]) => slots.map((slot) => ({ id: slot.id, label: slot.label, value: slot.startTime }));

/**
 * Offers the agenda's next free times as choices and books the one the customer picks, with the Agenda's
 * rules; with no free time, an answer that names none of them, or a time taken meanwhile and nothing else
 * free, a person takes the chat over. The playground shows the booking it would make without saving it.
 */
export const schedule: NodeExecutor<'schedule'> = {
  async run(data, ctx) {
    const event = eventOf(data, ctx);
    const slots = await ctx.services.nextFreeSlots(ctx.interpolate(data.eventType).trim());
    if (slots.length === 0) return handOver(ctx, scheduleTexts.noSlots(event), 'Sin horarios libres en la Agenda');
    ctx.variables[SCHEDULE_OFFER_VARIABLE] = JSON.stringify(slots);
    const options = asOptions(slots);
    ctx.say({ type: 'options', text: scheduleTexts.offer(event), options });
    return { kind: 'wait_input', options };
  },
  async resume(data, answer, ctx) {
    const slots = offeredSlots(ctx);
    const option = chosenFlowOption(answer, asOptions(slots));
    const slot = option && slots.find((candidate) => candidate.id === option.id);
    if (!slot) return handOver(ctx, scheduleTexts.noneChosen, 'El cliente no eligió ninguno de los horarios');

    if (ctx.mode === 'simulation') {
      ctx.report(`[📅 Se agendaría el ${slot.description}; el Playground no guarda citas en la Agenda]`);
    } else {
      const outcome = await ctx.services.bookSlot(slot, {
        name: ctx.variables.contact_name || 'Cliente de WhatsApp',
        phone: ctx.variables.contact_phone ?? '',
      });
      if ('refused' in outcome) {
        ctx.report(`[📅 No se pudo agendar: ${outcome.refused}]`);
        ctx.say({ type: 'text', text: scheduleTexts.taken });
        return schedule.run(data, ctx);
      }
      ctx.report(`[📅 Cita agendada: ${slot.description}]`);
    }
    delete ctx.variables[SCHEDULE_OFFER_VARIABLE];
    ctx.variables[APPOINTMENT_VARIABLE] = slot.description;
    ctx.say({ type: 'text', text: scheduleTexts.booked(slot) });
    return next();
  },
};
