import { describe, expect, it } from 'vitest';
import type { Edge } from '@xyflow/react';
import { ONE_TRIGGER_ONLY } from '@embudo/contracts/flows/flow';
import { connect, createNode, edgeIdOf, newNodeId, removeNodes, toBotConfig, upsertEdge, withoutHandle, type EditorNode } from './flow-editing.ts';

const node = (id: string, type: EditorNode['type'] = 'sendMessage'): EditorNode => ({ id, type, position: { x: 0, y: 0 }, data: { label: id } });
const link = (source: string, target: string, sourceHandle: string | null = null) => ({ source, target, sourceHandle, targetHandle: null });

describe('connect', () => {
  it("joins an output to another node with React Flow's edge id", () => {
    const edges = connect([], link('a', 'b', 'si'));
    expect(edges).toEqual([{ id: 'xy-edge__asi-b', source: 'a', target: 'b', sourceHandle: 'si', targetHandle: null }]);
    expect(edgeIdOf(link('a', 'b'))).toBe('xy-edge__a-b');
  });

  it('cancels a connection dropped onto the node it started from', () => {
    const existing: Edge[] = [{ id: 'e1', source: 'a', target: 'b' }];
    expect(connect(existing, link('a', 'a'))).toEqual(existing);
  });

  it('replaces an edge with an identical id instead of adding a second one', () => {
    const first = connect([], link('a', 'b'));
    const again = connect(first, link('a', 'b'));
    expect(again).toHaveLength(1);
    const relabelled = upsertEdge(again, { id: 'xy-edge__a-b', source: 'a', target: 'b', label: 'nuevo' });
    expect(relabelled).toEqual([{ id: 'xy-edge__a-b', source: 'a', target: 'b', label: 'nuevo' }]);
    // Another handle of the same node is another edge.
    expect(connect(again, link('a', 'b', 'opcion-2'))).toHaveLength(2);
  });
});

describe('removeNodes', () => {
  it('removes the node and every edge that touches it, and nothing else', () => {
    const nodes = [node('a'), node('b'), node('c')];
    const edges: Edge[] = [
      { id: 'ab', source: 'a', target: 'b' },
      { id: 'bc', source: 'b', target: 'c' },
      { id: 'ac', source: 'a', target: 'c' },
    ];
    const after = removeNodes(nodes, edges, ['b']);
    expect(after.nodes.map((n) => n.id)).toEqual(['a', 'c']);
    expect(after.edges.map((e) => e.id)).toEqual(['ac']);
  });

  it('drops the edges of a removed option handle only', () => {
    const edges: Edge[] = [
      { id: '1', source: 'm', target: 'x', sourceHandle: 'op-1' },
      { id: '2', source: 'm', target: 'y', sourceHandle: 'op-2' },
    ];
    expect(withoutHandle(edges, 'm', 'op-1').map((e) => e.id)).toEqual(['2']);
  });
});

describe('createNode', () => {
  it('names the node after its type and a timestamp and gives it the spec defaults', () => {
    const created = createNode('timer', { x: 10, y: 20 }, [], 1700000000000);
    expect(created).toEqual({
      node: { id: 'timer-1700000000000', type: 'timer', position: { x: 10, y: 20 }, data: { label: 'Temporizador', duration: 5, unit: 'minutes' } },
    });
    expect((createNode('webhook', { x: 0, y: 0 }, []) as { node: EditorNode }).node.data).toMatchObject({ method: 'POST', body: '{}' });
    expect((createNode('condition', { x: 0, y: 0 }, []) as { node: EditorNode }).node.data).toMatchObject({ variable: 'user_response', operator: 'contains' });
    expect((createNode('trigger', { x: 0, y: 0 }, []) as { node: EditorNode }).node.data).toMatchObject({ triggerType: 'on_message_received' });
  });

  it('refuses a second trigger', () => {
    expect(createNode('trigger', { x: 0, y: 0 }, [node('trigger-1', 'trigger')])).toEqual({ error: ONE_TRIGGER_ONLY });
  });

  it('keeps ids unique when two nodes land in the same millisecond', () => {
    expect(newNodeId('end', [node('end-5', 'end'), node('end-6', 'end')], 5)).toBe('end-7');
  });
});

describe('toBotConfig', () => {
  it('keeps only what the server saves', () => {
    const nodes: EditorNode[] = [{ ...node('a'), selected: true, measured: { width: 280, height: 90 } }];
    const edges: Edge[] = [{ id: 'e', source: 'a', target: 'b', animated: true }];
    expect(toBotConfig(nodes, edges)).toEqual({
      nodes: [{ id: 'a', type: 'sendMessage', position: { x: 0, y: 0 }, data: { label: 'a' } }],
      edges: [{ id: 'e', source: 'a', target: 'b', sourceHandle: null, targetHandle: null }],
    });
  });
});
