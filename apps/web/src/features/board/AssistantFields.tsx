import {
  type ColumnFileTool,
  AI_FALLBACK_REPLY_MAX,
  type ColumnTool,
  type ColumnWebhookTool,
  fileTools,
  type GeminiConfig,
  geminiConfigSchema,
  type ToolFileState,
  webhookTools,
} from '@embudo/contracts/http/funnels';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import { errorMessageOr } from '../../shared/api-client/api-error.ts';
import { Button } from '../../shared/ui/Button.tsx';
import { LineIcon } from '../../shared/ui/LineIcon.tsx';
import { useToast } from '../../shared/ui/use-toast.ts';
import { boardApi, type BoardColumn } from './board.api.ts';

/** A column without an assistant yet: switched off, every other setting at the contract's default. */
export const EMPTY_ASSISTANT: GeminiConfig = geminiConfigSchema.parse({ isEnabled: false });

/** The enable switch and the instructions of a column's AI assistant (spec 01 §3 Column AI config). */
export function AssistantGeneralFields({ value, onChange }: { value: GeminiConfig; onChange: (next: GeminiConfig) => void }) {
  const id = useId();
  return (
    <div className="space-y-4">
      <label className="flex items-center justify-between gap-3 rounded-lg bg-slate-50 px-3 py-3 ring-1 ring-slate-200">
        <span>
          <span className="block text-sm font-semibold text-slate-800">Asistente AI de la columna</span>
          <span data-testid="assistant-scope" className="block text-xs text-slate-500">
            Responde los chats que entran a esta columna (por el menú, al moverlos o al crearlos), salvo los que alguien del equipo tomó. Para los que ya están
            aquí, usa «Activar AI en todos».
          </span>
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
      <div>
        <label htmlFor={`${id}-fallback`} className="mb-1.5 block text-sm font-medium text-slate-700">
          Respuesta cuando la IA no puede responder
        </label>
        <input
          id={`${id}-fallback`}
          value={value.fallbackReply}
          maxLength={AI_FALLBACK_REPLY_MAX}
          onChange={(event) => onChange({ ...value, fallbackReply: event.target.value })}
          className="block w-full rounded-lg border border-slate-300 px-3 py-2 text-sm shadow-sm outline-none focus:border-emerald-500 focus:ring-4 focus:ring-emerald-100"
        />
        <p className="mt-1 text-xs text-slate-500">
          La recibe el cliente si la IA falla; el motivo queda en una nota interna del chat. Déjala vacía para no enviar nada.
        </p>
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
 * A column assistant's settings as a dialog edits them, with its knowledge-file uploads. The server adds each uploaded
 * file to the column itself; the draft adds the tool it answers with a functional update, so uploads finishing at the
 * same moment each add their file (issue 44), and the dialog holds its save until every upload has finished, so a
 * save cannot leave out a file still on its way.
 */
export function useAssistantDraft(column: Pick<BoardColumn, 'id' | 'gemini_config'>) {
  const [draft, setDraft] = useState<GeminiConfig>(column.gemini_config ?? EMPTY_ASSISTANT);
  const changeTools = (update: ToolsUpdate) => setDraft((current) => ({ ...current, tools: update(current.tools) }));
  const uploads = useToolFileUploads(column.id, (tool) => changeTools((tools) => [...tools, tool]));
  return { draft, setDraft, changeTools, uploads };
}

type ToolsUpdate = (current: ColumnTool[]) => ColumnTool[];

export interface ToolFileUploads {
  /** Uploads still on their way. */
  pending: number;
  /** Why each refused file of the latest choice could not be used. */
  refusals: string[];
  start(files: File[]): void;
}

function useToolFileUploads(columnId: string, onUploaded: (tool: ColumnFileTool) => void): ToolFileUploads {
  const toast = useToast();
  const queryClient = useQueryClient();
  const [pending, setPending] = useState(0);
  const [refusals, setRefusals] = useState<string[]>([]);
  const uploadOne = async (file: File) => {
    setPending((count) => count + 1);
    try {
      onUploaded(await boardApi.uploadToolFile(columnId, file));
      void queryClient.invalidateQueries({ queryKey: toolFileStatesKey(columnId) });
      toast.success('Archivo de herramienta subido exitosamente.');
    } catch (error) {
      // The toast says what spec 01 says; the dialog keeps why this file could not be read.
      toast.error('Error al subir el archivo.');
      setRefusals((current) => [...current, `No se pudo usar «${file.name}»: ${errorMessageOr(error, 'Error al subir el archivo.')}`]);
    } finally {
      setPending((count) => count - 1);
    }
  };
  return {
    pending,
    refusals,
    start: (files) => {
      setRefusals([]);
      for (const file of files) void uploadOne(file);
    },
  };
}

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

/**
 * The assistant's tools: knowledge files (upload PDF, DOCX, XLSX, CSV, TXT, JSON or MD files, several at once, say
 * what each is for, remove one) and the company's webhooks it may call. Every change is a functional update of the list.
 */
export function ToolFilesEditor({
  columnId,
  tools: allTools,
  onChange,
  uploads,
}: {
  columnId: string;
  tools: ColumnTool[];
  onChange: (update: ToolsUpdate) => void;
  uploads: ToolFileUploads;
}) {
  const tools = fileTools(allTools);
  const states = useToolFileStates(columnId);
  const input = useRef<HTMLInputElement>(null);

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
                onClick={() => onChange((current) => current.filter((item) => item.id !== tool.id))}
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
              onChange={(event) => {
                const purpose = event.target.value;
                onChange((current) => current.map((item) => (item.id === tool.id ? { ...item, purpose } : item)));
              }}
              className="block w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm outline-none focus:border-emerald-500"
            />
          </li>
        ))}
      </ul>
      <input
        ref={input}
        type="file"
        hidden
        multiple
        accept=".csv,.txt,.json,.md,.pdf,.docx,.xlsx,text/csv,text/plain,text/markdown,application/json,application/pdf,application/vnd.openxmlformats-officedocument.wordprocessingml.document,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
        data-testid="tool-file-input"
        onChange={(event) => {
          uploads.start(Array.from(event.target.files ?? []));
          event.target.value = '';
        }}
      />
      <div className="flex items-center gap-3">
        <Button variant="secondary" size="sm" onClick={() => input.current?.click()}>
          Subir archivo
        </Button>
        {uploads.pending > 0 && (
          <span role="status" data-testid="tool-file-uploading" className="text-sm text-slate-500">
            Subiendo {uploads.pending === 1 ? '1 archivo' : `${uploads.pending} archivos`}…
          </span>
        )}
      </div>
      {uploads.refusals.length > 0 && (
        <div role="alert" data-testid="tool-file-error" className="space-y-1 rounded-md bg-rose-50 px-3 py-2 text-sm text-rose-700 ring-1 ring-rose-200">
          {uploads.refusals.map((refusal, index) => (
            <p key={index}>{refusal}</p>
          ))}
        </div>
      )}
      <WebhookToolsEditor tools={allTools} onChange={onChange} />
    </div>
  );
}

/** The company's services the assistant may call (GET, or POST with a JSON body it writes), each with what it is for. */
function WebhookToolsEditor({ tools: allTools, onChange }: { tools: ColumnTool[]; onChange: (update: ToolsUpdate) => void }) {
  const webhooks = webhookTools(allTools);
  const edit = (id: string, change: Partial<ColumnWebhookTool>) =>
    onChange((current) => current.map((item) => (item.id === id && item.type === 'webhook' ? { ...item, ...change } : item)));
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
                onClick={() => onChange((current) => current.filter((item) => item.id !== tool.id))}
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
        onClick={() => onChange((current) => [...current, { type: 'webhook', id: crypto.randomUUID(), label: '', method: 'POST', url: '', purpose: '' }])}
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
