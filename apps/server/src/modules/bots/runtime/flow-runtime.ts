import type { BotConfig, FlowNode, NodeType } from '@embudo/contracts/flows/flow';
import { USER_RESPONSE_VARIABLE } from '@embudo/contracts/flows/nodes/condition';
import type { FlowRunState } from '../../../../db/schema/index.ts';
import { interpolate } from './interpolate.ts';
import type { BotMessage, CustomerAnswer, NodeContext, NodeExecutor, NodeOutcome, RuntimeServices } from './node-executor.ts';
import { nodeExecutors } from './node-executors.ts';

/** A flow that keeps looping without waiting for the customer is cut here. */
export const MAX_STEPS_PER_RUN = 100;
export const NO_TRIGGER = '[El flujo no tiene un nodo disparador: agrega uno para empezar]';

export const newRunState = (variables: Record<string, string> = {}): FlowRunState => ({ status: 'idle', nodeId: null, variables });

export type FlowInput =
  | { kind: 'message'; answer: CustomerAnswer }
  /** The flow starts from its trigger (a card entered the trigger's column). */
  | { kind: 'start' }
  /** A live timer fired for the node that was waiting. */
  | { kind: 'timer'; nodeId: string };

/** One thing a run produced, in the order the nodes produced it. */
export type RunEntry = { kind: 'message'; message: BotMessage } | { kind: 'report'; text: string };

export interface FlowRunResult {
  state: FlowRunState;
  messages: BotMessage[];
  reports: string[];
  /** The messages and reports together, in execution order (the playground shows them so). */
  transcript: RunEntry[];
  /** Set when the run stopped at a live timer: resume this node's output after `ms`. */
  timer?: { nodeId: string; ms: number };
  /** The options the run waits on, if it waits for a choice. */
  waitingOptions?: { id: string; label: string; value: string }[];
}

interface RunEnvironment {
  mode: NodeContext['mode'];
  services: RuntimeServices;
}

/** Does a message continue a conversation in progress (an open question), rather than start one? */
export const awaitsAnswer = (state: FlowRunState) => state.status === 'waiting_input' && state.nodeId !== null;

/**
 * Runs the flow from where the state stands: an answer resumes the node that asked, a new message
 * (or a start) begins at the trigger, a timer resumes after its node. Nodes run one after another by
 * their edges until one waits, stops, or has no way out.
 */
export async function advanceFlow(config: BotConfig, previous: FlowRunState, input: FlowInput, env: RunEnvironment): Promise<FlowRunResult> {
  const nodes = new Map(config.nodes.map((node) => [node.id, node]));
  const variables = { ...previous.variables };
  const messages: BotMessage[] = [];
  const reports: string[] = [];
  const transcript: RunEntry[] = [];
  const report = (text: string) => {
    reports.push(text);
    transcript.push({ kind: 'report', text });
  };
  const ctx: NodeContext = {
    mode: env.mode,
    variables,
    interpolate: (text) => interpolate(text, variables),
    say: (message) => {
      messages.push(message);
      transcript.push({ kind: 'message', message });
    },
    report,
    services: env.services,
  };
  const finish = (state: Omit<FlowRunState, 'variables'>, extra: Partial<FlowRunResult> = {}): FlowRunResult => ({
    state: { ...state, variables },
    messages,
    reports,
    transcript,
    ...extra,
  });
  // The map pairs each type with its executor; TypeScript cannot follow that pairing through the union.
  const run = (node: FlowNode) => (nodeExecutors[node.type] as NodeExecutor<NodeType>).run(node.data as never, ctx);

  let current: FlowNode | undefined;
  let outcome: NodeOutcome;
  if (input.kind === 'timer') {
    current = nodes.get(input.nodeId);
    if (previous.status !== 'waiting_timer' || previous.nodeId !== input.nodeId || !current) return finish(previous);
    outcome = { kind: 'next', handle: null };
  } else {
    if (input.kind === 'message') variables[USER_RESPONSE_VARIABLE] = input.answer.text;
    const asking = input.kind === 'message' && awaitsAnswer(previous) ? nodes.get(previous.nodeId!) : undefined;
    const resume = asking ? (nodeExecutors[asking.type] as NodeExecutor<NodeType>).resume : undefined;
    if (asking && resume && input.kind === 'message') {
      current = asking;
      outcome = await resume(asking.data as never, input.answer, ctx);
    } else {
      current = config.nodes.find((node) => node.type === 'trigger');
      if (!current) {
        report(NO_TRIGGER);
        return finish({ status: 'ended', nodeId: null });
      }
      outcome = await run(current);
    }
  }

  for (let steps = 0; ; steps += 1) {
    switch (outcome.kind) {
      case 'wait_input':
        return finish(
          { status: 'waiting_input', nodeId: current.id },
          {
            waitingOptions: outcome.options ?? (current.type === 'sendMessageWithOptions' ? current.data.options : undefined),
          },
        );
      case 'wait_timer':
        return finish({ status: 'waiting_timer', nodeId: current.id }, { timer: { nodeId: current.id, ms: outcome.ms } });
      case 'stop':
        return finish({ status: outcome.status, nodeId: null });
      case 'next': {
        const following = followingNode(config, nodes, current.id, outcome.handle ?? null);
        if (!following) return finish({ status: 'ended', nodeId: null });
        if (steps >= MAX_STEPS_PER_RUN) {
          report(`[El flujo dio más de ${MAX_STEPS_PER_RUN} pasos sin esperar al cliente: se detuvo. Revisa si hay un ciclo.]`);
          return finish({ status: 'ended', nodeId: null });
        }
        current = following;
        outcome = await run(current);
      }
    }
  }
}

/** The node at the end of the edge leaving `nodeId` by `handle`; a node with one output takes its first edge. */
function followingNode(config: BotConfig, nodes: Map<string, FlowNode>, nodeId: string, handle: string | null): FlowNode | undefined {
  const leaving = config.edges.filter((edge) => edge.source === nodeId);
  const edge = handle === null ? leaving[0] : leaving.find((candidate) => candidate.sourceHandle === handle);
  return edge ? nodes.get(edge.target) : undefined;
}
