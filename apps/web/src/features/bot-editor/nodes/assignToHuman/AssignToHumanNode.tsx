import type { NodeProps } from '@xyflow/react';
import type { AssignToHumanData } from '@embudo/contracts/flows/nodes/assignToHuman';
import type { EditorNode } from '../../flow-editing.ts';
import { useEditor } from '../../node-shell/editor-context.ts';
import { NodeLabelField, NodeSelect } from '../../node-shell/NodeFields.tsx';
import { NodeShell } from '../../node-shell/NodeShell.tsx';
import { useNodeData } from '../../node-shell/use-node-data.ts';

/** The bot stops for the chat: a person takes over. */
export function AssignToHumanNode({ id, data, selected }: NodeProps<EditorNode>) {
  const value = data as Partial<AssignToHumanData>;
  const update = useNodeData<'assignToHuman'>(id);
  const { members } = useEditor();
  return (
    <NodeShell id={id} type="assignToHuman" label={value.label} output={false} selected={selected}>
      <NodeLabelField value={value.label} onChange={(label) => update({ label })} />
      <NodeSelect label="Agente" value={value.agentId ?? ''} onChange={(agentId) => update({ agentId })}>
        <option value="">Cualquiera del equipo</option>
        {members.map((member) => (
          <option key={member.id} value={member.id}>
            {member.name}
          </option>
        ))}
      </NodeSelect>
    </NodeShell>
  );
}
