import type { Metrics } from './metrics.ts';

interface Usage {
  inputTokens: number;
  outputTokens: number;
}

/** The shape of the AI model port (modules/ai) that metering needs; platform/ does not import modules. */
interface MeterableModel {
  readonly provider: string;
  answer(request: never): Promise<{ usage: Usage }>;
  transcribe(audio: never): Promise<{ usage: Usage }>;
}

/**
 * The same model, counting each call and its tokens (`embudo_ai_calls_total`, `embudo_ai_tokens_total`). Wrapped
 * once at the composition root, so the assistant, the copilot, transcripts and bot prompts are all counted.
 */
export function meterAiModel<Model extends MeterableModel>(model: Model, metrics: Metrics): Model {
  const metered =
    <Args extends unknown[], Result extends { usage: Usage }>(kind: 'answer' | 'transcript', call: (...args: Args) => Promise<Result>) =>
    async (...args: Args): Promise<Result> => {
      try {
        const result = await call(...args);
        metrics.aiCall(model.provider, kind, 'ok', result.usage);
        return result;
      } catch (error) {
        metrics.aiCall(model.provider, kind, 'error');
        throw error;
      }
    };
  const answer = metered('answer', model.answer.bind(model) as (...args: unknown[]) => Promise<{ usage: Usage }>);
  const transcribe = metered('transcript', model.transcribe.bind(model) as (...args: unknown[]) => Promise<{ usage: Usage }>);
  // A proxy, so anything else the port offers (now or later) answers exactly as the model itself.
  return new Proxy(model, {
    get(target, property) {
      if (property === 'answer') return answer;
      if (property === 'transcribe') return transcribe;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
