import { z } from 'zod';
import { clientId, safeText, TEXT_LIMITS } from '../text.ts';
import { aiPromptData, aiPromptDefaults } from './nodes/aiPrompt.ts';
import { assignToHumanData, assignToHumanDefaults } from './nodes/assignToHuman.ts';
import { conditionData, conditionDefaults } from './nodes/condition.ts';
import { endData, endDefaults } from './nodes/end.ts';
import { redirectData, redirectDefaults } from './nodes/redirect.ts';
import { scheduleData, scheduleDefaults } from './nodes/schedule.ts';
import { sendEmailData, sendEmailDefaults } from './nodes/sendEmail.ts';
import { sendImageData, sendImageDefaults } from './nodes/sendImage.ts';
import { sendMessageData, sendMessageDefaults } from './nodes/sendMessage.ts';
import { sendMessageWithOptionsData, sendMessageWithOptionsDefaults } from './nodes/sendMessageWithOptions.ts';
import { setVariableData, setVariableDefaults } from './nodes/setVariable.ts';
import { timerData, timerDefaults } from './nodes/timer.ts';
import { triggerData, triggerDefaults } from './nodes/trigger.ts';
import { webhookData, webhookDefaults } from './nodes/webhook.ts';

/** Spec 02 §3 Node: every node type with its data schema and the data a new node starts with (§9 defaults). */
export const nodeContracts = {
  trigger: { data: triggerData, defaults: triggerDefaults },
  sendMessage: { data: sendMessageData, defaults: sendMessageDefaults },
  sendImage: { data: sendImageData, defaults: sendImageDefaults },
  sendMessageWithOptions: { data: sendMessageWithOptionsData, defaults: sendMessageWithOptionsDefaults },
  condition: { data: conditionData, defaults: conditionDefaults },
  timer: { data: timerData, defaults: timerDefaults },
  redirect: { data: redirectData, defaults: redirectDefaults },
  schedule: { data: scheduleData, defaults: scheduleDefaults },
  sendEmail: { data: sendEmailData, defaults: sendEmailDefaults },
  aiPrompt: { data: aiPromptData, defaults: aiPromptDefaults },
  webhook: { data: webhookData, defaults: webhookDefaults },
  setVariable: { data: setVariableData, defaults: setVariableDefaults },
  assignToHuman: { data: assignToHumanData, defaults: assignToHumanDefaults },
  end: { data: endData, defaults: endDefaults },
} as const;

export type NodeType = keyof typeof nodeContracts;
export const nodeTypes = Object.keys(nodeContracts) as NodeType[];
export type NodeDataOf<T extends NodeType> = z.output<(typeof nodeContracts)[T]['data']>;

export const MAX_FLOW_NODES = 200;
export const MAX_FLOW_EDGES = 400;
export const ONE_TRIGGER_ONLY = 'Solo puede haber un nodo disparador por flujo.';
export const UNKNOWN_NODE_TYPE = `Tipo de nodo desconocido: usa ${nodeTypes.join(', ')}.`;

const POSITION_INVALID = 'La posición del nodo necesita x e y numéricos, entre -10000000 y 10000000.';
const coordinate = z.number({ error: POSITION_INVALID }).min(-10_000_000, { error: POSITION_INVALID }).max(10_000_000, { error: POSITION_INVALID });
const position = z.object(
  {
    x: coordinate,
    y: coordinate,
  },
  { error: 'Cada nodo necesita una posición {x, y}.' },
);

/** Node and edge ids come from the editor ("sendMessage-1712345678901"). */
const elementId = (message: string) => clientId(message).min(1, { error: message });

/** The node as the editor saves it; its data is checked by its type's contract (flowNodeProblems). */
export const flowNodeShape = z.object({
  id: elementId('Cada nodo necesita un id.'),
  type: z.enum(nodeTypes as [NodeType, ...NodeType[]], { error: UNKNOWN_NODE_TYPE }),
  position,
  data: z.record(safeText(TEXT_LIMITS.id), z.unknown(), { error: 'Cada nodo necesita sus datos (data).' }),
});

export const flowEdge = z.object({
  id: elementId('Cada conexión necesita un id.'),
  source: elementId('Cada conexión necesita su nodo de origen (source).'),
  target: elementId('Cada conexión necesita su nodo de destino (target).'),
  /** An option id, or 'true'/'false' for a condition; null for a node with one output. */
  sourceHandle: safeText(TEXT_LIMITS.id)
    .nullish()
    .transform((value) => value ?? null),
  targetHandle: safeText(TEXT_LIMITS.id)
    .nullish()
    .transform((value) => value ?? null),
});
export type FlowEdge = z.infer<typeof flowEdge>;

export type FlowNode = { [T in NodeType]: { id: string; type: T; position: { x: number; y: number }; data: NodeDataOf<T> } }[NodeType];

/** Every node's data parsed by its own contract; a bad node names itself in the message. */
const typedNode = flowNodeShape.transform((node, ctx): FlowNode => {
  const parsed = nodeContracts[node.type].data.safeParse(node.data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const label = typeof node.data.label === 'string' && node.data.label ? node.data.label : node.type;
    ctx.addIssue({ code: 'custom', message: `Nodo «${label}»: ${issue.message}`, path: ['data', ...issue.path.map(String)] });
    return z.NEVER;
  }
  return { ...node, data: parsed.data } as FlowNode;
});

/** Spec 02 §3 Bot config: nodes and edges; one trigger at most, edges join nodes of the flow, ids unique. */
export const botConfig = z
  .object(
    {
      nodes: z
        .array(typedNode, { error: 'config.nodes debe ser una lista.' })
        .max(MAX_FLOW_NODES, { error: `Un flujo admite como máximo ${MAX_FLOW_NODES} nodos.` }),
      edges: z
        .array(flowEdge, { error: 'config.edges debe ser una lista.' })
        .max(MAX_FLOW_EDGES, { error: `Un flujo admite como máximo ${MAX_FLOW_EDGES} conexiones.` }),
    },
    { error: 'config debe tener nodes y edges.' },
  )
  .superRefine((config, ctx) => {
    if (config.nodes.filter((node) => node.type === 'trigger').length > 1) ctx.addIssue({ code: 'custom', message: ONE_TRIGGER_ONLY, path: ['nodes'] });
    const ids = new Set<string>();
    for (const node of config.nodes) {
      if (ids.has(node.id)) ctx.addIssue({ code: 'custom', message: `Hay dos nodos con el id ${node.id}.`, path: ['nodes'] });
      ids.add(node.id);
    }
    const edgeIds = new Set<string>();
    for (const edge of config.edges) {
      if (!ids.has(edge.source) || !ids.has(edge.target))
        ctx.addIssue({ code: 'custom', message: `La conexión ${edge.id} une nodos que no existen en el flujo.`, path: ['edges'] });
      else if (edge.source === edge.target) ctx.addIssue({ code: 'custom', message: `La conexión ${edge.id} une un nodo consigo mismo.`, path: ['edges'] });
      if (edgeIds.has(edge.id)) ctx.addIssue({ code: 'custom', message: `Hay dos conexiones con el id ${edge.id}.`, path: ['edges'] });
      edgeIds.add(edge.id);
    }
  });
export type BotConfig = z.output<typeof botConfig>;
export type BotConfigInput = z.input<typeof botConfig>;

/** A saved flow as the server answers it (already checked when saved). */
export const savedBotConfig = z.object({
  nodes: z.array(flowNodeShape),
  edges: z.array(
    z.object({ id: z.string(), source: z.string(), target: z.string(), sourceHandle: z.string().nullable(), targetHandle: z.string().nullable() }),
  ),
});

export const EMPTY_BOT_CONFIG: BotConfig = { nodes: [], edges: [] };
