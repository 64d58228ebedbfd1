import type { NodeProps } from '@xyflow/react';
import { webhookMethods, type WebhookData } from '@embudo/contracts/flows/nodes/webhook';
import type { EditorNode } from '../../flow-editing.ts';
import { NodeLabelField, NodeSelect, NodeTextArea, NodeTextField } from '../../node-shell/NodeFields.tsx';
import { NodeShell } from '../../node-shell/NodeShell.tsx';
import { useNodeData } from '../../node-shell/use-node-data.ts';

export function WebhookNode({ id, data, selected }: NodeProps<EditorNode>) {
  const value = data as Partial<WebhookData>;
  const update = useNodeData<'webhook'>(id);
  return (
    <NodeShell id={id} type="webhook" label={value.label} selected={selected}>
      <NodeLabelField value={value.label} onChange={(label) => update({ label })} />
      <NodeTextField label="URL" type="url" value={value.url} onChange={(url) => update({ url })} placeholder="https://..." />
      <NodeSelect label="Método" value={value.method ?? 'POST'} onChange={(method) => update({ method: method as WebhookData['method'] })}>
        {webhookMethods.map((method) => (
          <option key={method} value={method}>
            {method}
          </option>
        ))}
      </NodeSelect>
      {(value.method ?? 'POST') === 'POST' && (
        <NodeTextArea
          label="Cuerpo (JSON)"
          value={value.body}
          onChange={(body) => update({ body })}
          hint="La respuesta queda en {{webhook_response}} y sus campos en {{webhook.campo}}."
        />
      )}
    </NodeShell>
  );
}
