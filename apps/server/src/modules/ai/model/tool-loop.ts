import { generateText, isStepCount, jsonSchema, tool, type LanguageModel, type ModelMessage, type StepResult, type ToolSet } from 'ai';
import { aiModelErrorOf } from './model-http.ts';
import type { AiAnswerRequest, AiModelError, AiTool, AiToolCallRecord, AiUsage } from './model-port.ts';

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
          return runTool(offered, args);
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
          prepareStep: ({ stepNumber }: { stepNumber: number }) => (stepNumber >= maxRounds ? { toolChoice: 'none' as const } : undefined),
        };
  const steps = await modelSteps(adapter, signal, () =>
    generateText({ model, instructions: request.instructions, messages, ...toolOptions, maxRetries: 0, abortSignal: signal }),
  );
  return { text: [...steps].reverse().find((step) => step.text)?.text ?? '', toolCalls: toolCallRecords(steps), usage: usageOf(steps) };
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

/** Every call in execution order with what the model got back; a call of a tool that was not offered is an error. */
function toolCallRecords(steps: Array<StepResult<ToolSet>>): AiToolCallRecord[] {
  return steps.flatMap((step) =>
    step.toolCalls.map((call) => {
      const args = isPlainObject(call.input) ? call.input : {};
      const output = step.toolResults.find((result) => result.toolCallId === call.toolCallId)?.output;
      const result = isPlainObject(output) ? output : { error: `No existe la herramienta ${call.toolName}` };
      return { name: call.toolName, args, result };
    }),
  );
}

/** Summed over every step; thinking tokens are in the output (they are billed as output). */
export function usageOf(steps: Array<Pick<StepResult<ToolSet>, 'usage'>>): AiUsage {
  return {
    inputTokens: steps.reduce((sum, step) => sum + (step.usage.inputTokens ?? 0), 0),
    outputTokens: steps.reduce((sum, step) => sum + (step.usage.outputTokens ?? 0), 0),
  };
}

/** A tool's result as the model gets it: always an object; a failure becomes `{ error }`. */
async function runTool(offered: AiTool, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  try {
    const result: unknown = await offered.execute(args);
    return isPlainObject(result) ? result : { result };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
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
