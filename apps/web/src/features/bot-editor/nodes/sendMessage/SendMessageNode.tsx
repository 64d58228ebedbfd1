import type { NodeProps } from '@xyflow/react';
import type { SendMessageData } from '@embudo/contracts/flows/nodes/sendMessage';
import type { EditorNode } from '../../flow-editing.ts';
import { NodeLabelField, NodeTextArea, VARIABLES_HINT } from '../../node-shell/NodeFields.tsx';
import { NodeShell } from '../../node-shell/NodeShell.tsx';
import { useNodeData } from '../../node-shell/use-node-data.ts';

export function SendMessageNode({ id, data, selected }: NodeProps<EditorNode>) {
  const value = data as Partial<SendMessageData>;
  const update = useNodeData<'sendMessage'>(id);
  return (
    <NodeShell id={id} type="sendMessage" label={value.label} selected={selected}>
      <NodeLabelField value={value.label} onChange={(label) => update({ label })} />
      <NodeTextArea label="Mensaje" value={value.text} onChange={(text) => update({ text })} placeholder="Escribe el mensaje del bot" hint={VARIABLES_HINT} />
    </NodeShell>
  );
}
