import type { NodeProps } from '@xyflow/react';
import { aiToolTypes, type AiPromptData, type AiTool, type AiToolType } from '@embudo/contracts/flows/nodes/aiPrompt';
import type { EditorNode } from '../../flow-editing.ts';
import { useEditor } from '../../node-shell/editor-context.ts';
import { NodeLabelField, NodeSelect, NodeTextArea, NodeTextField } from '../../node-shell/NodeFields.tsx';
import { NodeShell } from '../../node-shell/NodeShell.tsx';
import { useNodeData } from '../../node-shell/use-node-data.ts';

const toolLabels: Record<AiToolType, string> = { webhook: 'Webhook', redirect_to_column: 'Mover a columna', schedule_message: 'Programar mensaje' };

function newTool(type: AiToolType): AiTool {
  const id = `tool-${Date.now()}`;
  if (type === 'webhook') return { id, tool_type: 'webhook', label: 'Consultar datos', type: 'POST', url: '' };
  if (type === 'redirect_to_column') return { id, tool_type: 'redirect_to_column', label: 'Mover a columna', columnId: '' };
  return { id, tool_type: 'schedule_message', label: 'Programar mensaje' };
}

export function AiPromptNode({ id, data, selected }: NodeProps<EditorNode>) {
  const value = data as Partial<AiPromptData>;
  const tools: AiTool[] = value.tools ?? [];
  const update = useNodeData<'aiPrompt'>(id);
  const { columns } = useEditor();
  const setTool = (toolId: string, patch: Partial<AiTool>) =>
    update({ tools: tools.map((tool) => (tool.id === toolId ? ({ ...tool, ...patch } as AiTool) : tool)) });
  return (
    <NodeShell id={id} type="aiPrompt" label={value.label} selected={selected}>
      <NodeLabelField value={value.label} onChange={(label) => update({ label })} />
      <NodeTextArea label="Prompt" value={value.prompt} onChange={(prompt) => update({ prompt })} placeholder="Eres el asistente de ventas de..." rows={4} />
      <p className="text-[11px] font-medium text-slate-600">Herramientas</p>
      {tools.map((tool) => (
        <div key={tool.id} className="space-y-1.5 rounded-md bg-slate-50 p-2 ring-1 ring-slate-200">
          <div className="flex items-center justify-between">
            <span className="text-[11px] font-semibold text-slate-700">{toolLabels[tool.tool_type]}</span>
            <button
              type="button"
              className="text-slate-400 hover:text-rose-600"
              aria-label={`Quitar herramienta ${tool.label}`}
              onClick={() => update({ tools: tools.filter((other) => other.id !== tool.id) })}
            >
              ×
            </button>
          </div>
          <NodeTextField label="Nombre" value={tool.label} onChange={(label) => setTool(tool.id, { label })} />
          {tool.tool_type === 'webhook' && (
            <>
              <NodeSelect label="Método" value={tool.type} onChange={(method) => setTool(tool.id, { type: method as 'GET' | 'POST' })}>
                <option value="POST">POST</option>
                <option value="GET">GET</option>
              </NodeSelect>
              <NodeTextField label="URL" type="url" value={tool.url} onChange={(url) => setTool(tool.id, { url })} />
            </>
          )}
          {tool.tool_type === 'redirect_to_column' && (
            <NodeSelect label="Columna (opcional)" value={tool.columnId} onChange={(columnId) => setTool(tool.id, { columnId })}>
              <option value="">La que elija la IA</option>
              {columns.map((column) => (
                <option key={column.id} value={column.id}>
                  {column.funnelName} · {column.title}
                </option>
              ))}
            </NodeSelect>
          )}
        </div>
      ))}
      <NodeSelect label="Añadir herramienta" value="" onChange={(type) => type && update({ tools: [...tools, newTool(type as AiToolType)] })}>
        <option value="">Elige un tipo…</option>
        {aiToolTypes.map((type) => (
          <option key={type} value={type}>
            {toolLabels[type]}
          </option>
        ))}
      </NodeSelect>
    </NodeShell>
  );
}
