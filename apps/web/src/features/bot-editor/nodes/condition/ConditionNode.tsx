import type { NodeProps } from '@xyflow/react';
import { conditionOperators, type ConditionData, type ConditionOperator } from '@embudo/contracts/flows/nodes/condition';
import type { EditorNode } from '../../flow-editing.ts';
import { NodeLabelField, NodeSelect, NodeTextField } from '../../node-shell/NodeFields.tsx';
import { BranchRow, NodeShell } from '../../node-shell/NodeShell.tsx';
import { useNodeData } from '../../node-shell/use-node-data.ts';

const operatorLabels: Record<ConditionOperator, string> = {
  contains: 'contiene',
  equals: 'es igual a',
  not_equals: 'es distinto de',
  starts_with: 'empieza por',
  greater_than: 'es mayor que',
  less_than: 'es menor que',
};

/** Leaves by "Verdadero" or "Falso". */
export function ConditionNode({ id, data, selected }: NodeProps<EditorNode>) {
  const value = data as Partial<ConditionData>;
  const update = useNodeData<'condition'>(id);
  return (
    <NodeShell id={id} type="condition" label={value.label} output={false} selected={selected}>
      <NodeLabelField value={value.label} onChange={(label) => update({ label })} />
      <NodeTextField
        label="Variable"
        value={value.variable}
        onChange={(variable) => update({ variable })}
        hint="user_response es lo último que escribió el cliente."
      />
      <NodeSelect label="Operador" value={value.operator ?? 'contains'} onChange={(operator) => update({ operator: operator as ConditionOperator })}>
        {conditionOperators.map((operator) => (
          <option key={operator} value={operator}>
            {operatorLabels[operator]}
          </option>
        ))}
      </NodeSelect>
      <NodeTextField label="Valor" value={value.value} onChange={(text) => update({ value: text })} />
      <BranchRow handleId="true">
        <span className="w-full text-right font-semibold text-emerald-700">Verdadero</span>
      </BranchRow>
      <BranchRow handleId="false">
        <span className="w-full text-right font-semibold text-rose-700">Falso</span>
      </BranchRow>
    </NodeShell>
  );
}
