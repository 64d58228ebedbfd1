import { next, type NodeExecutor } from '../node-executor.ts';

export const sendMessage: NodeExecutor<'sendMessage'> = {
  async run(data, ctx) {
    const text = ctx.interpolate(data.text).trim();
    if (text) ctx.say({ type: 'text', text });
    else ctx.report(`[«${data.label}» no tiene texto: no se envió nada]`);
    return next();
  },
};
