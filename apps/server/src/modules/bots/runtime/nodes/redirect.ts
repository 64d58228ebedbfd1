import { next, type NodeExecutor } from '../node-executor.ts';

/** Moves the card to the target column (the playground only says where it would go). */
export const redirect: NodeExecutor<'redirect'> = {
  async run(data, ctx) {
    const columnId = data.targetId.trim();
    const title = columnId ? await ctx.services.redirectToColumn(columnId) : undefined;
    if (!title) {
      ctx.report(`[«${data.label}»: la columna de destino no existe; el chat no se movió]`);
      return next();
    }
    ctx.report(ctx.mode === 'simulation' ? `[➡ El chat se movería a la columna «${title}»]` : `[➡ Chat movido a la columna «${title}»]`);
    return next();
  },
};
