import type { NodeType } from '@embudo/contracts/flows/flow';
import type { NodeExecutor } from './node-executor.ts';
import { aiPrompt } from './nodes/aiPrompt.ts';
import { assignToHuman } from './nodes/assignToHuman.ts';
import { condition } from './nodes/condition.ts';
import { end } from './nodes/end.ts';
import { redirect } from './nodes/redirect.ts';
import { schedule } from './nodes/schedule.ts';
import { sendEmail } from './nodes/sendEmail.ts';
import { sendImage } from './nodes/sendImage.ts';
import { sendMessage } from './nodes/sendMessage.ts';
import { sendMessageWithOptions } from './nodes/sendMessageWithOptions.ts';
import { setVariable } from './nodes/setVariable.ts';
import { timer } from './nodes/timer.ts';
import { trigger } from './nodes/trigger.ts';
import { webhook } from './nodes/webhook.ts';

/** One executor per node type (spec 02 §3 Node), named like its contract and its editor component. */
export const nodeExecutors: { [T in NodeType]: NodeExecutor<T> } = {
  trigger,
  sendMessage,
  sendImage,
  sendMessageWithOptions,
  condition,
  timer,
  redirect,
  schedule,
  sendEmail,
  aiPrompt,
  webhook,
  setVariable,
  assignToHuman,
  end,
};
