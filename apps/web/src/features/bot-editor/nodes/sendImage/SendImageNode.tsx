import type { NodeProps } from '@xyflow/react';
import type { SendImageData } from '@embudo/contracts/flows/nodes/sendImage';
import type { EditorNode } from '../../flow-editing.ts';
import { NodeLabelField, NodeSecretField, NodeTextField } from '../../node-shell/NodeFields.tsx';
import { NodeShell } from '../../node-shell/NodeShell.tsx';
import { useNodeData } from '../../node-shell/use-node-data.ts';

export function SendImageNode({ id, data, selected }: NodeProps<EditorNode>) {
  const value = data as Partial<SendImageData>;
  const update = useNodeData<'sendImage'>(id);
  return (
    <NodeShell id={id} type="sendImage" label={value.label} selected={selected}>
      <NodeLabelField value={value.label} onChange={(label) => update({ label })} />
      <NodeTextField label="URL de la imagen" type="url" value={value.imageUrl} onChange={(imageUrl) => update({ imageUrl })} placeholder="https://..." />
      <NodeSecretField
        label="Token de acceso (opcional)"
        value={value.authToken}
        onChange={(authToken) => update({ authToken })}
        hint="Se envía como Bearer si la imagen lo requiere."
      />
      <NodeTextField label="Mensaje si falla" value={value.errorMessage} onChange={(errorMessage) => update({ errorMessage })} />
    </NodeShell>
  );
}
