import { z } from 'zod';
import { nodeLabel, nodePartId, nodeText, optionalNodeId } from '../node-fields.ts';

/** Spec 02 §3 AI tool and §9 tool types: webhook (GET or POST), redirect_to_column, schedule_message. */
export const aiToolTypes = ['webhook', 'redirect_to_column', 'schedule_message'] as const;
export type AiToolType = (typeof aiToolTypes)[number];

const toolId = nodePartId('Cada herramienta necesita un id.');
const toolLabel = nodeText('La etiqueta de la herramienta', 120);

export const aiTool = z.discriminatedUnion(
  'tool_type',
  [
    z.object({
      id: toolId,
      tool_type: z.literal('webhook'),
      label: toolLabel,
      type: z.enum(['GET', 'POST'], { error: 'Método inválido: usa GET o POST.' }).default('POST'),
      url: nodeText('La URL', 2048),
    }),
    z.object({ id: toolId, tool_type: z.literal('redirect_to_column'), label: toolLabel, columnId: optionalNodeId('La columna') }),
    z.object({ id: toolId, tool_type: z.literal('schedule_message'), label: toolLabel }),
  ],
  { error: 'Tipo de herramienta inválido: usa webhook, redirect_to_column o schedule_message.' },
);
export type AiTool = z.infer<typeof aiTool>;

export const aiPromptData = z.object({
  label: nodeLabel,
  prompt: nodeText('El prompt', 20_000),
  tools: z.array(aiTool, { error: 'tools debe ser una lista.' }).max(20, { error: 'Como máximo 20 herramientas.' }).default([]),
});
export type AiPromptData = z.infer<typeof aiPromptData>;

export const aiPromptDefaults: AiPromptData = { label: 'Prompt de IA', prompt: '', tools: [] };
