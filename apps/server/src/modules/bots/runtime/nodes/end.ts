import type { NodeExecutor } from '../node-executor.ts';

export const end: NodeExecutor<'end'> = {
  async run(_data, ctx) {
    ctx.report('[Fin del flujo]');
    return { kind: 'stop', status: 'ended' };
  },
};
