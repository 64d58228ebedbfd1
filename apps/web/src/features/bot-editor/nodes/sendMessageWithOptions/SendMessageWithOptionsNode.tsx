import type { NodeProps } from '@xyflow/react';
import { MAX_NODE_OPTIONS, type FlowOption, type SendMessageWithOptionsData } from '@embudo/contracts/flows/nodes/sendMessageWithOptions';
import type { EditorNode } from '../../flow-editing.ts';
import { useEditor } from '../../node-shell/editor-context.ts';
import { NodeLabelField, NodeTextArea, VARIABLES_HINT } from '../../node-shell/NodeFields.tsx';
import { BranchRow, NodeShell } from '../../node-shell/NodeShell.tsx';
import { useNodeData } from '../../node-shell/use-node-data.ts';

const valueOf = (label: string) =>
  label
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .trim()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '');

/** Each option is an output: the flow follows the edge of the option the customer chooses. */
export function SendMessageWithOptionsNode({ id, data, selected }: NodeProps<EditorNode>) {
  const value = data as Partial<SendMessageWithOptionsData>;
  const options: FlowOption[] = value.options ?? [];
  const update = useNodeData<'sendMessageWithOptions'>(id);
  const editor = useEditor();
  const setOption = (optionId: string, label: string) =>
    update({ options: options.map((option) => (option.id === optionId ? { ...option, label, value: valueOf(label) || option.value } : option)) });
  const addOption = () => {
    const optionId = `opcion-${Date.now()}`;
    update({ options: [...options, { id: optionId, label: `Opción ${options.length + 1}`, value: `opcion_${options.length + 1}` }] });
  };
  const removeOption = (optionId: string) => {
    update({ options: options.filter((option) => option.id !== optionId) });
    editor.dropHandle(id, optionId);
  };
  return (
    <NodeShell id={id} type="sendMessageWithOptions" label={value.label} output={options.length === 0} selected={selected}>
      <NodeLabelField value={value.label} onChange={(label) => update({ label })} />
      <NodeTextArea label="Mensaje" value={value.text} onChange={(text) => update({ text })} hint={VARIABLES_HINT} rows={2} />
      <p className="text-[11px] font-medium text-slate-600">Opciones</p>
      {options.map((option, index) => (
        <BranchRow key={option.id} handleId={option.id}>
          <input
            aria-label={`Opción ${index + 1}`}
            className="block w-full rounded-md border border-slate-300 px-2 py-1 text-xs outline-none focus:border-emerald-500"
            value={option.label}
            onChange={(event) => setOption(option.id, event.target.value)}
          />
          <button
            type="button"
            className="rounded px-1.5 text-slate-400 hover:bg-rose-50 hover:text-rose-600"
            aria-label={`Quitar opción ${index + 1}`}
            onClick={() => removeOption(option.id)}
          >
            ×
          </button>
        </BranchRow>
      ))}
      {options.length < MAX_NODE_OPTIONS && (
        <button type="button" className="text-xs font-semibold text-indigo-600 hover:text-indigo-800" onClick={addOption}>
          + Añadir opción
        </button>
      )}
    </NodeShell>
  );
}
