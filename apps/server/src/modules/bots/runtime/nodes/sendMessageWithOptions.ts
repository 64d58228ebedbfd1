import { USER_RESPONSE_VARIABLE } from '@embudo/contracts/flows/nodes/condition';
import { chosenFlowOption } from '../option-choice.ts';
import { next, type NodeExecutor } from '../node-executor.ts';

export const OPTIONS_RETRY_TEXT = 'No reconocí tu respuesta. Elige una de estas opciones:';
export const SELECTED_OPTION_VARIABLE = 'selected_option';

/** Asks and waits; the chosen option's id is the handle the flow leaves by. */
export const sendMessageWithOptions: NodeExecutor<'sendMessageWithOptions'> = {
  async run(data, ctx) {
    const options = data.options.map((option) => ({ ...option, label: ctx.interpolate(option.label) }));
    ctx.say({ type: 'options', text: ctx.interpolate(data.text).trim(), options });
    if (options.length === 0) {
      ctx.report(`[«${data.label}» no tiene opciones: el flujo sigue sin esperar respuesta]`);
      return next();
    }
    return { kind: 'wait_input' };
  },
  async resume(data, answer, ctx) {
    const option = chosenFlowOption(answer, data.options);
    if (!option) {
      ctx.say({ type: 'options', text: OPTIONS_RETRY_TEXT, options: data.options.map((choice) => ({ ...choice, label: ctx.interpolate(choice.label) })) });
      return { kind: 'wait_input' };
    }
    ctx.variables[SELECTED_OPTION_VARIABLE] = option.value || option.label;
    ctx.variables[USER_RESPONSE_VARIABLE] = option.value || option.label;
    return next(option.id);
  },
};
