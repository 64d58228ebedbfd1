import type { NodeProps } from '@xyflow/react';
import { triggerTypes, type TriggerData } from '@embudo/contracts/flows/nodes/trigger';
import type { EditorNode } from '../../flow-editing.ts';
import { useEditor } from '../../node-shell/editor-context.ts';
import { NodeLabelField, NodeSelect } from '../../node-shell/NodeFields.tsx';
import { NodeShell } from '../../node-shell/NodeShell.tsx';
import { useNodeData } from '../../node-shell/use-node-data.ts';

const triggerLabels: Record<(typeof triggerTypes)[number], string> = {
  on_message_received: 'Al recibir un mensaje',
  on_column_entry: 'Al entrar a una columna',
};

export function TriggerNode({ id, data, selected }: NodeProps<EditorNode>) {
  const value = data as Partial<TriggerData>;
  const update = useNodeData<'trigger'>(id);
  const { columns } = useEditor();
  return (
    <NodeShell id={id} type="trigger" label={value.label} input={false} selected={selected}>
      <NodeLabelField value={value.label} onChange={(label) => update({ label })} />
      <NodeSelect
        label="Cuándo empieza"
        value={value.triggerType ?? 'on_message_received'}
        onChange={(triggerType) => update({ triggerType: triggerType as TriggerData['triggerType'] })}
      >
        {triggerTypes.map((type) => (
          <option key={type} value={type}>
            {triggerLabels[type]}
          </option>
        ))}
      </NodeSelect>
      {value.triggerType === 'on_column_entry' && (
        <NodeSelect
          label="Columna"
          value={value.columnId ?? ''}
          onChange={(columnId) => update({ columnId })}
          hint="El flujo empieza cuando un chat entra a esta columna."
        >
          <option value="">Elige una columna</option>
          {columns.map((column) => (
            <option key={column.id} value={column.id}>
              {column.funnelName} · {column.title}
            </option>
          ))}
        </NodeSelect>
      )}
    </NodeShell>
  );
}
