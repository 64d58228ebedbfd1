import {
  AI_QUIET_SECONDS_DEFAULT,
  type ColumnTool,
  type ColumnWebhookTool,
  fileTools,
  type GeminiConfig,
  type ToolFileState,
  webhookTools,
} from '@embudo/contracts/http/funnels';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import { errorMessageOr } from '../../shared/api-client/api-error.ts';
import { Button } from '../../shared/ui/Button.tsx';
import { LineIcon } from '../../shared/ui/LineIcon.tsx';
import { useToast } from '../../shared/ui/use-toast.ts';
import { boardApi } from './board.api.ts';

export const EMPTY_ASSISTANT: GeminiConfig = { isEnabled: false, systemPrompt: '', tools: [], quietSeconds: AI_QUIET_SECONDS_DEFAULT, pauseOnHumanReply: true };

/** The enable switch and the instructions of a column's AI assistant (spec 01 §3 Column AI config). */
export function AssistantGeneralFields({ value, onChange }: { value: GeminiConfig; onChange: (next: GeminiConfig) => void }) {
  const id = useId();
  return (
    <div className="space-y-4">
      <label className="flex items-center justify-between gap-3 rounded-lg bg-slate-50 px-3 py-3 ring-1 ring-slate-200">
        <span>
          <span className="block text-sm font-semibold text-slate-800">Asistente AI de la columna</span>
          <span className="block text-xs text-slate-500">Responde a los chats de esta columna que tengan la AI activa.</span>
          <ModelLabel />
        </span>
        <input
          type="checkbox"
          role="switch"
          aria-label="Asistente activo"
          checked={value.isEnabled}
          onChange={(event) => onChange({ ...value, isEnabled: event.target.checked })}
          className="size-5 accent-emerald-600"
        />
      </label>
      <div>
        <label htmlFor={`${id}-prompt`} className="mb-1.5 block text-sm font-medium text-slate-700">
          Instrucciones del asistente
        </label>
        <textarea
          id={`${id}-prompt`}
          rows={6}
          value={value.systemPrompt}
          maxLength={20_000}
          placeholder="Eres el asistente de ventas de la empresa. Responde con amabilidad y brevedad…"
          onChange={(event) => onChange({ ...value, systemPrompt: event.target.value })}
          className="block w-full rounded-lg border border-slate-300 px-3 py-2 text-sm shadow-sm outline-none focus:border-emerald-500 focus:ring-4 focus:ring-emerald-100"
        />
      </div>
      <div className="grid gap-3 sm:grid-cols-2">
        <div>
          <label htmlFor={`${id}-quiet`} className="mb-1.5 block text-sm font-medium text-slate-700">
            Segundos de espera antes de responder
          </label>
          <input
            id={`${id}-quiet`}
            type="number"
            min={0}
            max={60}
            step={1}
            value={value.quietSeconds}
            onChange={(event) => onChange({ ...value, quietSeconds: quietSecondsFrom(event.target.value) })}
            className="block w-28 rounded-lg border border-slate-300 px-3 py-2 text-sm shadow-sm outline-none focus:border-emerald-500 focus:ring-4 focus:ring-emerald-100"
          />
          <p className="mt-1 text-xs text-slate-500">Si el cliente escribe varios mensajes seguidos, la IA responde una sola vez.</p>
        </div>
        <label className="flex items-start gap-2 text-sm text-slate-700">
          <input
            type="checkbox"
            checked={value.pauseOnHumanReply}
            onChange={(event) => onChange({ ...value, pauseOnHumanReply: event.target.checked })}
            className="mt-0.5 size-4 accent-emerald-600"
          />
          <span>
            Pausar la IA cuando alguien del equipo responde
            <span className="block text-xs text-slate-500">La IA del chat se apaga; se vuelve a activar con su interruptor.</span>
          </span>
        </label>
      </div>
    </div>
  );
}

/** 0 to 60 whole seconds; what cannot be read as a number counts as 0. */
function quietSecondsFrom(raw: string) {
  const seconds = Math.round(Number(raw));
  return Number.isFinite(seconds) ? Math.min(60, Math.max(0, seconds)) : 0;
}

/**
 * The assistant's tools: knowledge files (upload a PDF, DOCX, XLSX, CSV, TXT, JSON or MD, say what it is for, remove
 * it) and the company's webhooks it may call.
 */
/** How often the dialog asks again while a file is still being indexed. */
const INDEXING_POLL_MS = 3_000;

export const toolFileStatesKey = (columnId: string) => ['tool-file-states', columnId];

/** Issue 44: where each saved knowledge file's indexing stands, asked again while one is still indexing. */
function useToolFileStates(columnId: string) {
  const query = useQuery({
    queryKey: toolFileStatesKey(columnId),
    queryFn: () => boardApi.toolFileStates(columnId),
    refetchInterval: (current) => (current.state.data?.some((file) => file.state === 'indexing') ? INDEXING_POLL_MS : false),
  });
  return new Map((query.data ?? []).map((file) => [file.filePath, file]));
}

function ToolFileStateLabel({ file }: { file: ToolFileState | undefined }) {
  if (!file) return null;
  const passages = `${file.passages} ${file.passages === 1 ? 'pasaje' : 'pasajes'}`;
  if (file.state === 'error') {
    return (
      <p data-testid="tool-file-state" className="text-xs text-rose-700">
        Error al indexar: {file.error}
      </p>
    );
  }
  return (
    <p data-testid="tool-file-state" className="text-xs text-slate-500">
      {file.state === 'indexed' ? `Indexado · ${passages}` : `Indexando… · ${passages}`}
    </p>
  );
}

export function ToolFilesEditor({ columnId, tools: allTools, onChange }: { columnId: string; tools: ColumnTool[]; onChange: (next: ColumnTool[]) => void }) {
  const tools = fileTools(allTools);
  const states = useToolFileStates(columnId);
  const queryClient = useQueryClient();
  const toast = useToast();
  const input = useRef<HTMLInputElement>(null);
  const [uploading, setUploading] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);

  const upload = async (file: File | undefined) => {
    if (!file) return;
    setUploading(true);
    setRefusal(null);
    try {
      const { fileName, filePath } = await boardApi.uploadToolFile(columnId, file);
      void queryClient.invalidateQueries({ queryKey: toolFileStatesKey(columnId) });
      onChange([...allTools, { type: 'file_upload', id: crypto.randomUUID(), fileName, filePath, purpose: '' }]);
      toast.success('Archivo de herramienta subido exitosamente.');
    } catch (error) {
      // The toast says what spec 01 says; the dialog keeps why this file could not be read.
      toast.error('Error al subir el archivo.');
      setRefusal(`No se pudo usar «${file.name}»: ${errorMessageOr(error, 'Error al subir el archivo.')}`);
    } finally {
      setUploading(false);
    }
  };

  return (
    <div className="space-y-3">
      <p className="text-sm text-slate-600">
        Archivos que el asistente puede consultar (se sugieren CSV, TXT o JSON; también lee PDF, DOCX, XLSX y MD de hasta 5 MB).
      </p>
      <ul className="space-y-2" aria-label="Archivos de herramientas">
        {tools.length === 0 && <li className="rounded-lg bg-slate-50 px-3 py-3 text-center text-sm text-slate-500">Sin archivos.</li>}
        {tools.map((tool) => (
          <li key={tool.id} data-testid="tool-file" className="space-y-2 rounded-lg bg-slate-50 px-3 py-2 ring-1 ring-slate-200">
            <div className="flex items-center gap-2">
              <span className="min-w-0 flex-1 truncate text-sm font-medium text-slate-800">
                <LineIcon name="file" className="mr-1 size-4 align-[-3px] text-slate-500" />
                {tool.fileName}
              </span>
              <Button
                size="sm"
                variant="ghost"
                className="text-rose-600"
                aria-label={`Quitar ${tool.fileName}`}
                onClick={() => onChange(allTools.filter((item) => item.id !== tool.id))}
              >
                Quitar
              </Button>
            </div>
            <ToolFileStateLabel file={states.get(tool.filePath)} />
            <input
              aria-label={`Propósito de ${tool.fileName}`}
              value={tool.purpose}
              maxLength={1000}
              placeholder="¿Para qué sirve? p. ej. lista de precios"
              onChange={(event) => onChange(allTools.map((item) => (item.id === tool.id ? { ...item, purpose: event.target.value } : item)))}
              className="block w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm outline-none focus:border-emerald-500"
            />
          </li>
        ))}
      </ul>
      <input
        ref={input}
        type="file"
        hidden
        accept=".csv,.txt,.json,.md,.pdf,.docx,.xlsx,text/csv,text/plain,text/markdown,application/json,application/pdf,application/vnd.openxmlformats-officedocument.wordprocessingml.document,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
        data-testid="tool-file-input"
        onChange={(event) => {
          void upload(event.target.files?.[0]);
          event.target.value = '';
        }}
      />
      <Button variant="secondary" size="sm" loading={uploading} onClick={() => input.current?.click()}>
        Subir archivo
      </Button>
      {refusal && (
        <p role="alert" data-testid="tool-file-error" className="rounded-md bg-rose-50 px-3 py-2 text-sm text-rose-700 ring-1 ring-rose-200">
          {refusal}
        </p>
      )}
      <WebhookToolsEditor tools={allTools} onChange={onChange} />
    </div>
  );
}

/** The company's services the assistant may call (GET, or POST with a JSON body it writes), each with what it is for. */
function WebhookToolsEditor({ tools: allTools, onChange }: { tools: ColumnTool[]; onChange: (next: ColumnTool[]) => void }) {
  const webhooks = webhookTools(allTools);
  const edit = (id: string, change: Partial<ColumnWebhookTool>) =>
    onChange(allTools.map((item) => (item.id === id && item.type === 'webhook' ? { ...item, ...change } : item)));
  const field = 'block w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm outline-none focus:border-emerald-500';
  return (
    <div className="space-y-2 border-t border-slate-200 pt-3">
      <p className="text-sm text-slate-600">Webhooks que el asistente puede llamar (por ejemplo, consultar un pedido).</p>
      <ul className="space-y-2" aria-label="Webhooks del asistente">
        {webhooks.map((tool, index) => (
          <li key={tool.id} data-testid="tool-webhook" className="space-y-2 rounded-lg bg-slate-50 px-3 py-2 ring-1 ring-slate-200">
            <div className="flex items-center gap-2">
              <input
                aria-label={`Nombre del webhook ${index + 1}`}
                value={tool.label}
                maxLength={120}
                placeholder="Consultar pedido"
                onChange={(event) => edit(tool.id, { label: event.target.value })}
                className={`${field} flex-1`}
              />
              <select
                aria-label={`Método del webhook ${index + 1}`}
                value={tool.method}
                onChange={(event) => edit(tool.id, { method: event.target.value === 'GET' ? 'GET' : 'POST' })}
                className="rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm"
              >
                <option value="POST">POST</option>
                <option value="GET">GET</option>
              </select>
              <Button
                size="sm"
                variant="ghost"
                className="text-rose-600"
                aria-label={`Quitar webhook ${index + 1}`}
                onClick={() => onChange(allTools.filter((item) => item.id !== tool.id))}
              >
                Quitar
              </Button>
            </div>
            <input
              aria-label={`URL del webhook ${index + 1}`}
              value={tool.url}
              maxLength={2048}
              placeholder="https://"
              onChange={(event) => edit(tool.id, { url: event.target.value })}
              className={field}
            />
            <input
              aria-label={`Propósito del webhook ${index + 1}`}
              value={tool.purpose}
              maxLength={1000}
              placeholder="¿Cuándo usarlo? p. ej. cuando el cliente pregunta por su pedido"
              onChange={(event) => edit(tool.id, { purpose: event.target.value })}
              className={field}
            />
          </li>
        ))}
      </ul>
      <Button
        variant="secondary"
        size="sm"
        onClick={() => onChange([...allTools, { type: 'webhook', id: crypto.randomUUID(), label: '', method: 'POST', url: '', purpose: '' }])}
      >
        + Agregar webhook
      </Button>
    </div>
  );
}

/** Says which model answers: the built-in sandbox model is clearly a test one; no model means no answers. */
function ModelLabel() {
  const status = useQuery({ queryKey: ['ai-status'], queryFn: boardApi.aiStatus, staleTime: 5 * 60_000, retry: false });
  if (!status.data) return null;
  const { provider, label } = status.data;
  if (!provider) {
    return (
      <span data-testid="ai-model-label" className="mt-1 block text-xs font-medium text-amber-700">
        No hay un modelo de IA configurado: el asistente dejará una nota en lugar de responder.
      </span>
    );
  }
  return (
    <span data-testid="ai-model-label" className="mt-1 inline-block rounded-full bg-violet-100 px-2 py-0.5 text-[11px] font-semibold text-violet-800">
      Modelo: {label}
    </span>
  );
}
