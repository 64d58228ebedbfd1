import type { NodeTypes } from '@xyflow/react';
import type { NodeType } from '@embudo/contracts/flows/flow';
import { AiPromptNode } from './nodes/aiPrompt/AiPromptNode.tsx';
import { AssignToHumanNode } from './nodes/assignToHuman/AssignToHumanNode.tsx';
import { ConditionNode } from './nodes/condition/ConditionNode.tsx';
import { EndNode } from './nodes/end/EndNode.tsx';
import { RedirectNode } from './nodes/redirect/RedirectNode.tsx';
import { ScheduleNode } from './nodes/schedule/ScheduleNode.tsx';
import { SendEmailNode } from './nodes/sendEmail/SendEmailNode.tsx';
import { SendImageNode } from './nodes/sendImage/SendImageNode.tsx';
import { SendMessageNode } from './nodes/sendMessage/SendMessageNode.tsx';
import { SendMessageWithOptionsNode } from './nodes/sendMessageWithOptions/SendMessageWithOptionsNode.tsx';
import { SetVariableNode } from './nodes/setVariable/SetVariableNode.tsx';
import { TimerNode } from './nodes/timer/TimerNode.tsx';
import { TriggerNode } from './nodes/trigger/TriggerNode.tsx';
import { WebhookNode } from './nodes/webhook/WebhookNode.tsx';

/** One editor component per node type, in nodes/<type>/ like its contract and its executor. */
export const nodeComponents = {
  trigger: TriggerNode,
  sendMessage: SendMessageNode,
  sendImage: SendImageNode,
  sendMessageWithOptions: SendMessageWithOptionsNode,
  condition: ConditionNode,
  timer: TimerNode,
  redirect: RedirectNode,
  schedule: ScheduleNode,
  sendEmail: SendEmailNode,
  aiPrompt: AiPromptNode,
  webhook: WebhookNode,
  setVariable: SetVariableNode,
  assignToHuman: AssignToHumanNode,
  end: EndNode,
} satisfies Record<NodeType, NodeTypes[string]>;
