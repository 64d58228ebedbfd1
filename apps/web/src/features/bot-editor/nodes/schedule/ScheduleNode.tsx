import type { NodeProps } from '@xyflow/react';
import type { ScheduleData } from '@embudo/contracts/flows/nodes/schedule';
import type { EditorNode } from '../../flow-editing.ts';
import { NodeLabelField, NodeTextField } from '../../node-shell/NodeFields.tsx';
import { NodeShell } from '../../node-shell/NodeShell.tsx';
import { useNodeData } from '../../node-shell/use-node-data.ts';

export function ScheduleNode({ id, data, selected }: NodeProps<EditorNode>) {
  const value = data as Partial<ScheduleData>;
  const update = useNodeData<'schedule'>(id);
  return (
    <NodeShell id={id} type="schedule" label={value.label} selected={selected}>
      <NodeLabelField value={value.label} onChange={(label) => update({ label })} />
      <NodeTextField
        label="Tipo de evento"
        value={value.eventType}
        onChange={(eventType) => update({ eventType })}
        hint="Ofrece los próximos horarios libres del servicio de la agenda con ese nombre y agenda el que el cliente elija; si no hay horarios o no elige ninguno, el chat pasa a una persona."
      />
    </NodeShell>
  );
}
