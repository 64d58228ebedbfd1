import type { NodeProps } from '@xyflow/react';
import type { EndData } from '@embudo/contracts/flows/nodes/end';
import type { EditorNode } from '../../flow-editing.ts';
import { NodeLabelField } from '../../node-shell/NodeFields.tsx';
import { NodeShell } from '../../node-shell/NodeShell.tsx';
import { useNodeData } from '../../node-shell/use-node-data.ts';

export function EndNode({ id, data, selected }: NodeProps<EditorNode>) {
  const value = data as Partial<EndData>;
  const update = useNodeData<'end'>(id);
  return (
    <NodeShell id={id} type="end" label={value.label} output={false} selected={selected}>
      <NodeLabelField value={value.label} onChange={(label) => update({ label })} />
    </NodeShell>
  );
}
