import { useReactFlow } from '@xyflow/react';
import { useCallback } from 'react';
import type { NodeDataOf, NodeType } from '@embudo/contracts/flows/flow';

/** Changes some fields of a node's data (the rest stays as it is). */
export function useNodeData<T extends NodeType>(nodeId: string) {
  const flow = useReactFlow();
  return useCallback((patch: Partial<NodeDataOf<T>>) => flow.updateNodeData(nodeId, patch), [flow, nodeId]);
}
