import { z } from 'zod';

/** GET /api/ai/status: which AI model answers for this installation (issue 15); null when none is configured. */
export const aiStatusResponse = z.object({
  provider: z.enum(['gemini', 'openai', 'sandbox']).nullable(),
  /** What the UI calls it: "IA de prueba" for the built-in sandbox model. */
  label: z.string().nullable(),
});
export type AiStatus = z.infer<typeof aiStatusResponse>;
