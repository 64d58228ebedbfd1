import { next, type NodeExecutor } from '../node-executor.ts';

/** The flow's start; when it fires (a message, a column entry) is decided before the run. */
export const trigger: NodeExecutor<'trigger'> = {
  run: async () => next(),
};
