import type { NodeProps } from '@xyflow/react';
import type { SetVariableData } from '@embudo/contracts/flows/nodes/setVariable';
import type { EditorNode } from '../../flow-editing.ts';
import { NodeLabelField, NodeTextField, VARIABLES_HINT } from '../../node-shell/NodeFields.tsx';
import { NodeShell } from '../../node-shell/NodeShell.tsx';
import { useNodeData } from '../../node-shell/use-node-data.ts';

export function SetVariableNode({ id, data, selected }: NodeProps<EditorNode>) {
  const value = data as Partial<SetVariableData>;
  const update = useNodeData<'setVariable'>(id);
  return (
    <NodeShell id={id} type="setVariable" label={value.label} selected={selected}>
      <NodeLabelField value={value.label} onChange={(label) => update({ label })} />
      <NodeTextField label="Nombre de la variable" value={value.varName} onChange={(varName) => update({ varName })} placeholder="ciudad" />
      <NodeTextField label="Valor" value={value.varValue} onChange={(varValue) => update({ varValue })} hint={VARIABLES_HINT} />
    </NodeShell>
  );
}
