import type { NodeProps } from '@xyflow/react';
import type { SendEmailData } from '@embudo/contracts/flows/nodes/sendEmail';
import type { EditorNode } from '../../flow-editing.ts';
import { NodeLabelField, NodeTextArea, NodeTextField, VARIABLES_HINT } from '../../node-shell/NodeFields.tsx';
import { NodeShell } from '../../node-shell/NodeShell.tsx';
import { useNodeData } from '../../node-shell/use-node-data.ts';

export function SendEmailNode({ id, data, selected }: NodeProps<EditorNode>) {
  const value = data as Partial<SendEmailData>;
  const update = useNodeData<'sendEmail'>(id);
  return (
    <NodeShell id={id} type="sendEmail" label={value.label} selected={selected}>
      <NodeLabelField value={value.label} onChange={(label) => update({ label })} />
      <NodeTextField label="Para" type="email" value={value.to} onChange={(to) => update({ to })} placeholder="ventas@tuempresa.com" />
      <NodeTextField label="Asunto" value={value.subject} onChange={(subject) => update({ subject })} />
      <NodeTextArea label="Cuerpo" value={value.body} onChange={(body) => update({ body })} hint={VARIABLES_HINT} />
    </NodeShell>
  );
}
