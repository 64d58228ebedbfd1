import type { AiAnswerRequest, AiTool, AiToolCallRecord, AiUsage } from './model-port.ts';

export const DEFAULT_MAX_TOOL_ROUNDS = 5;

export interface ToolCall {
  name: string;
  args: Record<string, unknown>;
}

export interface ModelStep<Call extends ToolCall> {
  text: string;
  calls: Call[];
  usage: AiUsage;
}

/** One adapter's side of the loop: send the conversation so far, and append a round of tool results to it. */
export interface ToolLoopDriver<Call extends ToolCall> {
  /** `toolsAllowed` false: the model must answer in words (no tools offered, or the rounds are used up). */
  send(toolsAllowed: boolean): Promise<ModelStep<Call>>;
  /** Appends the model's calling turn unchanged, then the results in the same order as the calls. */
  answerCalls(calls: Call[], results: Array<Record<string, unknown>>): void;
}

/**
 * The manual function-calling loop every adapter shares: call the model, run the tools it asks for in order,
 * send the results back, at most `maxToolRounds` times; then one last call where the model may not call tools.
 */
export async function runToolLoop<Call extends ToolCall>(request: AiAnswerRequest, driver: ToolLoopDriver<Call>) {
  const maxRounds = request.maxToolRounds ?? DEFAULT_MAX_TOOL_ROUNDS;
  const toolCalls: AiToolCallRecord[] = [];
  const usage: AiUsage = { inputTokens: 0, outputTokens: 0 };
  let textSoFar = '';
  for (let round = 0; ; round++) {
    const toolsAllowed = request.tools.length > 0 && round < maxRounds;
    const step = await driver.send(toolsAllowed);
    usage.inputTokens += step.usage.inputTokens;
    usage.outputTokens += step.usage.outputTokens;
    if (step.text) textSoFar = step.text;
    if (step.calls.length === 0 || !toolsAllowed) return { text: step.text || textSoFar, toolCalls, usage };
    const results: Array<Record<string, unknown>> = [];
    // A cancelled answer (the customer wrote again) does nothing more.
    if (request.signal?.aborted) throw request.signal.reason;
    for (const call of step.calls) {
      const result = await runTool(request.tools, call);
      toolCalls.push({ name: call.name, args: call.args, result });
      results.push(result);
    }
    driver.answerCalls(step.calls, results);
  }
}

/** A tool's result as the model gets it: always an object; a failure or an unknown tool becomes `{ error }`. */
async function runTool(tools: AiTool[], call: ToolCall): Promise<Record<string, unknown>> {
  const tool = tools.find((candidate) => candidate.name === call.name);
  if (!tool) return { error: `No existe la herramienta ${call.name}` };
  try {
    const result: unknown = await tool.execute(call.args);
    return isPlainObject(result) ? result : { result };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Turns as chat messages: consecutive turns of the same side are merged into one (providers expect alternation). */
export function mergedTurns<Role extends string>(turns: AiAnswerRequest['turns'], roleOf: (turn: AiAnswerRequest['turns'][number]) => Role) {
  const merged: Array<{ role: Role; text: string }> = [];
  for (const turn of turns) {
    const role = roleOf(turn);
    const last = merged.at(-1);
    if (last && last.role === role) last.text = `${last.text}\n${turn.text}`;
    else merged.push({ role, text: turn.text });
  }
  return merged;
}
