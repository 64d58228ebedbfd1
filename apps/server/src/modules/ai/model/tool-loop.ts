import { type AiAnswerRequest, type AiTool, type AiToolCallRecord, type AiUsage, TOOL_FAILED, ToolFailure, type ToolOutcome } from './model-port.ts';

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
    for (const call of step.calls) {
      // A cancelled answer (the customer wrote again) does nothing more.
      if (request.signal?.aborted) throw request.signal.reason;
      const index = toolCalls.length;
      const run = () => runTool(request.tools, call, index);
      const outcome = request.callTool ? await request.callTool({ index, name: call.name, args: call.args }, run) : await run();
      const result = modelResult(outcome);
      toolCalls.push({ name: call.name, args: call.args, result, ...(outcome.ok ? {} : { failure: outcome.reason }) });
      results.push(result);
    }
    driver.answerCalls(step.calls, results);
  }
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
