import { next, type NodeExecutor } from '../node-executor.ts';

/** Offers the agenda's next free times for the event; with none, says a person will confirm. */
export const schedule: NodeExecutor<'schedule'> = {
  async run(data, ctx) {
    const eventType = ctx.interpolate(data.eventType).trim();
    const event = eventType || 'tu cita';
    const slots = await ctx.services.nextFreeSlots(eventType);
    ctx.say({
      type: 'text',
      text: slots.length > 0
        ? `Para agendar ${event}, estos son los próximos horarios disponibles:\n${slots.map((slot) => `• ${slot}`).join('\n')}\n\nResponde con el horario que prefieras y lo confirmamos.`
        : `Para agendar ${event}, escríbenos el día y la hora que prefieras y una persona del equipo te confirmará la cita.`,
    });
    return next();
  },
};
