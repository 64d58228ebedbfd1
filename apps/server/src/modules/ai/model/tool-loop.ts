import { generateText, isStepCount, jsonSchema, tool, type LanguageModel, type ModelMessage, type StepResult, type ToolSet } from 'ai';
import { aiModelErrorOf } from './model-http.ts';
import {
  type AiAnswerRequest,
  type AiModelError,
  type AiTool,
  type AiToolCallRecord,
  type AiUsage,
  TOOL_FAILED,
  ToolFailure,
  type ToolOutcome,
} from './model-port.ts';

export const DEFAULT_MAX_TOOL_ROUNDS = 5;

// The SDK writes provider warnings to stderr (process.emitWarning), outside the server's pino log; the ones the
// adapters could meet (a setting a model ignores) concern choices made here, not anything an operator can act on.
(globalThis as { AI_SDK_LOG_WARNINGS?: false }).AI_SDK_LOG_WARNINGS = false;

/** One adapter's side of the loop: its name in errors, and what in a step means the model refused to answer. */
export interface ToolLoopAdapter {
  service: string;
  refusal(step: StepResult<ToolSet>): AiModelError | undefined;
}

/**
 * The function-calling loop every adapter shares, run by the AI SDK's `generateText`: call the model, run the tools
 * it asks for one after the other in its order, send the results back, at most `maxToolRounds` times; then one last
 * call that still declares the tools (the history names them) but forbids calling them.
 */
export async function answerWithTools(model: LanguageModel, request: AiAnswerRequest, messages: ModelMessage[], adapter: ToolLoopAdapter) {
  const maxRounds = request.maxToolRounds ?? DEFAULT_MAX_TOOL_ROUNDS;
  const signal = request.signal;
  const runner = createToolRunner(request);
  const tools: ToolSet = Object.fromEntries(
    request.tools.map((offered) => [
      offered.name,
      tool({
        description: offered.description,
        inputSchema: jsonSchema<Record<string, unknown>>(offered.parameters),
        execute: async (args: Record<string, unknown>) => {
          // A cancelled answer (the customer wrote again) does nothing more, even when the abort came with the
          // model's answer: the SDK checks the signal only between the calls of a step, not before the first.
          if (signal?.aborted) throw signal.reason;
          return runner.run(offered.name, args);
        },
      }),
    ]),
  );
  const toolOptions =
    request.tools.length === 0
      ? {}
      : {
          tools,
          toolChoice: 'auto' as const,
          toolOrder: request.tools.map((offered) => offered.name),
          toolCallConcurrency: 1,
          stopWhen: isStepCount(maxRounds + 1),
          prepareStep: async ({ stepNumber, steps, messages }: { stepNumber: number; steps: Array<StepResult<ToolSet>>; messages: ModelMessage[] }) => {
            // A call the SDK refused before any tool ran (a tool not offered, arguments the schema rejects) comes back to
            // the model in the SDK's own words: the ledger notes it and the model reads only the neutral ones.
            for (const refused of steps.at(-1)?.content ?? []) {
              if (refused.type === 'tool-error' && !tools[refused.toolName])
                await runner.run(refused.toolName, isPlainObject(refused.input) ? refused.input : {});
            }
            return { messages: withNeutralToolErrors(messages), ...(stepNumber >= maxRounds ? { toolChoice: 'none' as const } : {}) };
          },
        };
  const steps = await modelSteps(adapter, signal, () =>
    generateText({ model, instructions: request.instructions, messages, ...toolOptions, maxRetries: 0, abortSignal: signal }),
  );
  return { text: [...steps].reverse().find((step) => step.text)?.text ?? '', toolCalls: runner.records, usage: usageOf(steps) };
}

/**
 * The steps of one SDK call (its own retries off: the model fetch retries), or why they are no use: the caller's
 * abort as the caller gave it, a refusal in any step, any other failure as an AiModelError.
 */
export async function modelSteps(
  adapter: ToolLoopAdapter,
  signal: AbortSignal | undefined,
  call: () => PromiseLike<{ steps: Array<StepResult<ToolSet>> }>,
): Promise<Array<StepResult<ToolSet>>> {
  let steps: Array<StepResult<ToolSet>>;
  try {
    ({ steps } = await call());
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    throw aiModelErrorOf(error, adapter.service);
  }
  for (const step of steps) {
    const refused = adapter.refusal(step);
    if (refused) throw refused;
  }
  return steps;
}

/** Summed over every step; thinking tokens are in the output (they are billed as output). */
export function usageOf(steps: Array<Pick<StepResult<ToolSet>, 'usage'>>): AiUsage {
  return {
    inputTokens: steps.reduce((sum, step) => sum + (step.usage.inputTokens ?? 0), 0),
    outputTokens: steps.reduce((sum, step) => sum + (step.usage.outputTokens ?? 0), 0),
  };
}

export interface ToolCall {
  name: string;
  args: Record<string, unknown>;
}

/**
 * Runs an answer's tool calls one by one, each with its index in the answer (the ledger's key, through `callTool`),
 * and keeps their records. Answers what the model reads of each call.
 */
export function createToolRunner(request: Pick<AiAnswerRequest, 'tools' | 'callTool'>) {
  const records: AiToolCallRecord[] = [];
  return {
    records,
    async run(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
      const index = records.length;
      const run = () => runTool(request.tools, { name, args }, index);
      const outcome = request.callTool ? await request.callTool({ index, name, args }, run) : await run();
      const result = modelResult(outcome);
      records.push({ name, args, result, ...(outcome.ok ? {} : { failure: outcome.reason }) });
      return result;
    },
  };
}

/** The conversation with every tool error the SDK wrote replaced by words safe to repeat to the customer. */
function withNeutralToolErrors(messages: ModelMessage[]): ModelMessage[] {
  return messages.map((message) =>
    message.role !== 'tool'
      ? message
      : {
          ...message,
          content: message.content.map((part) =>
            part.type === 'tool-result' && (part.output.type === 'error-text' || part.output.type === 'error-json')
              ? { ...part, output: { type: 'json' as const, value: { error: TOOL_FAILED } } }
              : part,
          ),
        },
  );
}

/**
 * What the model reads of a call: the result, or for a failure only words safe to repeat to the customer. Models
 * repeat what a tool tells them, so an address the outbound guard refused or another customer's booking never
 * reaches the model.
 */
export function modelResult(outcome: ToolOutcome): Record<string, unknown> {
  return outcome.ok ? outcome.result : { error: outcome.advice ?? TOOL_FAILED };
}

/** Runs one call: always an object; a thrown error, a result with an `error` text or an unknown tool is a failure. */
async function runTool(tools: AiTool[], call: ToolCall, index: number): Promise<ToolOutcome> {
  const tool = tools.find((candidate) => candidate.name === call.name);
  if (!tool) return { ok: false, reason: `No existe la herramienta ${call.name}.` };
  try {
    const value: unknown = await tool.execute(call.args, { index });
    const result = isPlainObject(value) ? value : { result: value };
    return typeof result['error'] === 'string' ? { ok: false, reason: result['error'] } : { ok: true, result };
  } catch (error) {
    if (error instanceof ToolFailure) return { ok: false, reason: error.reason, ...(error.advice ? { advice: error.advice } : {}) };
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  }
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Stands in for the customer where a conversation needs a user turn it does not have (a chat the business opened). */
export const CONVERSATION_OPENER = '(comienzo de la conversación)';

/** Turns as chat messages: consecutive turns of the same side are merged into one (providers expect alternation). */
export function mergedTurns(turns: AiAnswerRequest['turns']): Array<{ role: 'user' | 'assistant'; content: string }> {
  const merged: Array<{ role: 'user' | 'assistant'; content: string }> = [];
  for (const turn of turns) {
    const role = turn.role === 'customer' ? 'user' : 'assistant';
    const last = merged.at(-1);
    if (last && last.role === role) last.content = `${last.content}\n${turn.text}`;
    else merged.push({ role, content: turn.text });
  }
  return merged;
}
