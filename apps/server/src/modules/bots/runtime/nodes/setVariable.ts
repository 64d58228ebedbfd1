import { next, type NodeExecutor } from '../node-executor.ts';

export const setVariable: NodeExecutor<'setVariable'> = {
  async run(data, ctx) {
    if (!data.varName) {
      ctx.report(`[«${data.label}» no tiene nombre de variable: no se guardó nada]`);
      return next();
    }
    ctx.variables[data.varName] = ctx.interpolate(data.varValue);
    return next();
  },
};
