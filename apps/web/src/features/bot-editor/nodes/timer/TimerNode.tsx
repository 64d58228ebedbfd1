import type { NodeProps } from '@xyflow/react';
import { timerUnits, type TimerData, type TimerUnit } from '@embudo/contracts/flows/nodes/timer';
import type { EditorNode } from '../../flow-editing.ts';
import { NodeLabelField, NodeSelect, NodeTextField } from '../../node-shell/NodeFields.tsx';
import { NodeShell } from '../../node-shell/NodeShell.tsx';
import { useNodeData } from '../../node-shell/use-node-data.ts';

const unitLabels: Record<TimerUnit, string> = { seconds: 'Segundos', minutes: 'Minutos', hours: 'Horas', days: 'Días' };

export function TimerNode({ id, data, selected }: NodeProps<EditorNode>) {
  const value = data as Partial<TimerData>;
  const update = useNodeData<'timer'>(id);
  return (
    <NodeShell id={id} type="timer" label={value.label} selected={selected}>
      <NodeLabelField value={value.label} onChange={(label) => update({ label })} />
      <div className="grid grid-cols-2 gap-2">
        <NodeTextField label="Duración" type="number" value={value.duration} onChange={(duration) => update({ duration: Number(duration) })} />
        <NodeSelect label="Unidad" value={value.unit ?? 'minutes'} onChange={(unit) => update({ unit: unit as TimerUnit })}>
          {timerUnits.map((unit) => (
            <option key={unit} value={unit}>
              {unitLabels[unit]}
            </option>
          ))}
        </NodeSelect>
      </div>
      <p className="text-[10px] text-slate-400">En el Playground la espera se omite.</p>
    </NodeShell>
  );
}
