import { USER_RESPONSE_VARIABLE } from '@embudo/contracts/flows/nodes/condition';
import { AiModelError, flowTools } from '../../../ai/index.ts';
import { next, type NodeExecutor } from '../node-executor.ts';

export const AI_NOT_CONFIGURED = 'La IA no está configurada (AI_PROVIDER), así que este paso no puede responder.';
export const AI_FAILED = 'No pudimos generar una respuesta en este momento.';
export const AI_RESPONSE_VARIABLE = 'ai_response';
/** The same bound as the column assistant's (issue 15). */
export const AI_PROMPT_MAX_TOOL_ROUNDS = 5;

/**
 * Answers the customer's last message with the node's prompt as instructions, through the AI module's model port and
 * its tool loop: the node's tools (webhook, redirect_to_column, schedule_message) are really called, each leaving a
 * note in execution order (docs/decisions/0013).
 */
export const aiPrompt: NodeExecutor<'aiPrompt'> = {
  async run(data, ctx) {
    const model = ctx.services.ai;
    if (!model) {
      ctx.say({ type: 'text', text: AI_NOT_CONFIGURED });
      return next();
    }
    try {
      const tools = await flowTools(data.tools, {
        mode: ctx.mode,
        http: ctx.services.http,
        redirectToColumn: (columnId) => ctx.services.redirectToColumn(columnId),
        columnChoices: () => ctx.services.columnChoices(),
        scheduleMessage: (text, sendAt) => ctx.services.scheduleMessage(text, sendAt),
        report: (text) => ctx.report(text),
      });
      const customerWords = ctx.variables[USER_RESPONSE_VARIABLE]?.trim() || '(sin mensaje)';
      const answer = await model.answer({
        instructions: ctx.interpolate(data.prompt),
        turns: [{ role: 'customer', text: customerWords }],
        tools,
        maxToolRounds: AI_PROMPT_MAX_TOOL_ROUNDS,
      });
      const text = answer.text.trim();
      ctx.variables[AI_RESPONSE_VARIABLE] = text;
      if (text) ctx.say({ type: 'text', text });
    } catch (error) {
      const reason = error instanceof AiModelError || error instanceof Error ? error.message : String(error);
      ctx.report(`[IA: ${reason}]`);
      ctx.say({ type: 'text', text: AI_FAILED });
    }
    return next();
  },
};
