import { USER_RESPONSE_VARIABLE } from '@embudo/contracts/flows/nodes/condition';
import { next, type NodeExecutor } from '../node-executor.ts';

export const AI_NOT_CONFIGURED = 'La IA no está configurada (falta GEMINI_API_KEY), así que este paso no puede responder.';
export const AI_FAILED = 'No pudimos generar una respuesta en este momento.';
export const AI_RESPONSE_VARIABLE = 'ai_response';

/** Answers the customer's last message with the node's prompt as instructions. */
export const aiPrompt: NodeExecutor<'aiPrompt'> = {
  async run(data, ctx) {
    if (!ctx.services.ai) {
      ctx.say({ type: 'text', text: AI_NOT_CONFIGURED });
      return next();
    }
    try {
      const answer = (
        await ctx.services.ai.respond({
          instructions: ctx.interpolate(data.prompt),
          customerMessage: ctx.variables[USER_RESPONSE_VARIABLE] ?? '',
          tools: data.tools,
        })
      ).trim();
      ctx.variables[AI_RESPONSE_VARIABLE] = answer;
      if (answer) ctx.say({ type: 'text', text: answer });
    } catch (error) {
      ctx.report(`[IA: ${error instanceof Error ? error.message : String(error)}]`);
      ctx.say({ type: 'text', text: AI_FAILED });
    }
    return next();
  },
};
