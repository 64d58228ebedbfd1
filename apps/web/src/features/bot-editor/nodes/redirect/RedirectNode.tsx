import type { NodeProps } from '@xyflow/react';
import type { RedirectData } from '@embudo/contracts/flows/nodes/redirect';
import type { EditorNode } from '../../flow-editing.ts';
import { useEditor } from '../../node-shell/editor-context.ts';
import { NodeLabelField, NodeSelect } from '../../node-shell/NodeFields.tsx';
import { NodeShell } from '../../node-shell/NodeShell.tsx';
import { useNodeData } from '../../node-shell/use-node-data.ts';

export function RedirectNode({ id, data, selected }: NodeProps<EditorNode>) {
  const value = data as Partial<RedirectData>;
  const update = useNodeData<'redirect'>(id);
  const { columns } = useEditor();
  return (
    <NodeShell id={id} type="redirect" label={value.label} selected={selected}>
      <NodeLabelField value={value.label} onChange={(label) => update({ label })} />
      <NodeSelect label="Mover el chat a la columna" value={value.targetId ?? ''} onChange={(targetId) => update({ targetType: 'column', targetId })}>
        <option value="">Elige una columna</option>
        {columns.map((column) => (
          <option key={column.id} value={column.id}>
            {column.funnelName} · {column.title}
          </option>
        ))}
      </NodeSelect>
    </NodeShell>
  );
}
