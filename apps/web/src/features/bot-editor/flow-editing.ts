import type { Connection, Edge, Node, XYPosition } from '@xyflow/react';
import { nodeContracts, ONE_TRIGGER_ONLY, type BotConfigInput, type NodeType } from '@embudo/contracts/flows/flow';

/**
 * The editor's rules as pure functions (spec 02 §4 Bot editor): connections join different nodes,
 * an edge with an identical id replaces the earlier one, deleting a node removes its edges, and a
 * flow has one trigger at most.
 */
export type EditorNodeData = Record<string, unknown>;
export type EditorNode = Node<EditorNodeData, NodeType>;

/** React Flow's own id scheme, so the same two handles always give the same edge id. */
export const edgeIdOf = (connection: Pick<Connection, 'source' | 'target' | 'sourceHandle' | 'targetHandle'>) =>
  `xy-edge__${connection.source}${connection.sourceHandle ?? ''}-${connection.target}${connection.targetHandle ?? ''}`;

/** A connection must end on another node: dropping onto the node it started from cancels it. */
export const isValidConnection = (connection: Pick<Connection, 'source' | 'target'>) =>
  Boolean(connection.source && connection.target) && connection.source !== connection.target;

/** Adds the connection as an edge; an edge with the same id is replaced, not duplicated. */
export function connect(edges: readonly Edge[], connection: Connection): Edge[] {
  if (!isValidConnection(connection)) return [...edges];
  return upsertEdge(edges, {
    id: edgeIdOf(connection),
    source: connection.source,
    target: connection.target,
    sourceHandle: connection.sourceHandle ?? null,
    targetHandle: connection.targetHandle ?? null,
  });
}

export function upsertEdge(edges: readonly Edge[], edge: Edge): Edge[] {
  return [...edges.filter((existing) => existing.id !== edge.id), edge];
}

/** Removes the nodes and every edge that touches them. */
export function removeNodes(nodes: readonly EditorNode[], edges: readonly Edge[], nodeIds: readonly string[]) {
  const gone = new Set(nodeIds);
  return {
    nodes: nodes.filter((node) => !gone.has(node.id)),
    edges: edges.filter((edge) => !gone.has(edge.source) && !gone.has(edge.target)),
  };
}

/** Edges leaving a handle that no longer exists (a removed option). */
export const withoutHandle = (edges: readonly Edge[], nodeId: string, handleId: string) =>
  edges.filter((edge) => !(edge.source === nodeId && edge.sourceHandle === handleId));

/** Node ids are the type plus a timestamp (spec 02 §3 Node), bumped when two land in the same millisecond. */
export function newNodeId(type: NodeType, existing: readonly { id: string }[], now = Date.now()): string {
  const taken = new Set(existing.map((node) => node.id));
  let stamp = now;
  while (taken.has(`${type}-${stamp}`)) stamp += 1;
  return `${type}-${stamp}`;
}

export type CreateNodeResult = { node: EditorNode } | { error: string };

/** A new node with its type's default data; a second trigger is refused. */
export function createNode(type: NodeType, position: XYPosition, existing: readonly EditorNode[], now = Date.now()): CreateNodeResult {
  if (type === 'trigger' && existing.some((node) => node.type === 'trigger')) return { error: ONE_TRIGGER_ONLY };
  const defaults = structuredClone(nodeContracts[type].defaults) as EditorNodeData;
  return { node: { id: newNodeId(type, existing, now), type, position, data: defaults } };
}

/** What the server saves: only id, type, position and data of each node, and the edges' ends. */
export function toBotConfig(nodes: readonly EditorNode[], edges: readonly Edge[]): BotConfigInput {
  return {
    nodes: nodes.map((node) => ({ id: node.id, type: node.type as NodeType, position: { x: node.position.x, y: node.position.y }, data: node.data })),
    edges: edges.map((edge) => ({
      id: edge.id,
      source: edge.source,
      target: edge.target,
      sourceHandle: edge.sourceHandle ?? null,
      targetHandle: edge.targetHandle ?? null,
    })),
  };
}

export function fromBotConfig(config: { nodes: readonly { id: string; type: string; position: XYPosition; data: EditorNodeData }[]; edges: readonly Edge[] }) {
  return {
    nodes: config.nodes.map((node) => ({ id: node.id, type: node.type as NodeType, position: node.position, data: node.data })),
    edges: config.edges.map((edge) => ({
      id: edge.id,
      source: edge.source,
      target: edge.target,
      sourceHandle: edge.sourceHandle ?? null,
      targetHandle: edge.targetHandle ?? null,
    })),
  };
}
