import type { FlowOption } from '@embudo/contracts/flows/nodes/sendMessageWithOptions';
import { chosenReply, type ReplyChoice } from '../../chats/index.ts';
import type { CustomerAnswer } from './node-executor.ts';

/** Reply buttons carry this prefix and the option id, so a pressed button names its option exactly. */
export const OPTION_POSTBACK_PREFIX = 'bot-option:';

export const optionChoices = (options: readonly FlowOption[]): ReplyChoice<FlowOption>[] =>
  options.map((option) => ({ item: option, title: option.label, postbackText: `${OPTION_POSTBACK_PREFIX}${option.id}`, aliases: [option.value, option.id] }));

/** The option the customer chose: a button's postback, the option's number, or its label, value or id (any case or accents). */
export function chosenFlowOption(answer: CustomerAnswer, options: readonly FlowOption[]): FlowOption | undefined {
  return chosenReply(answer, optionChoices(options));
}
