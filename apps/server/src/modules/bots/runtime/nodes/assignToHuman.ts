import type { NodeExecutor } from '../node-executor.ts';

export const HANDOFF_TEXT = 'Te comunicamos con una persona del equipo. En breve te atenderá.';

/** Stops the bot for this chat: from now on a person answers. */
export const assignToHuman: NodeExecutor<'assignToHuman'> = {
  async run(data, ctx) {
    const agent = data.agentId ? await ctx.services.memberName(data.agentId) : undefined;
    ctx.say({ type: 'text', text: HANDOFF_TEXT });
    ctx.report(agent ? `[Chat asignado a ${agent}; el bot deja de responder]` : '[Chat asignado al equipo; el bot deja de responder]');
    return { kind: 'stop', status: 'human' };
  },
};
