import '@xyflow/react/dist/style.css';
import './bot-editor.css';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Background,
  Controls,
  MiniMap,
  ReactFlow,
  ReactFlowProvider,
  useEdgesState,
  useNodesState,
  useReactFlow,
  type Connection,
  type Edge,
  type IsValidConnection,
} from '@xyflow/react';
import { useCallback, useEffect, useMemo, useRef, useState, type DragEvent } from 'react';
import { Link, useParams } from 'react-router';
import { nodeTypes as knownNodeTypes, type BotConfigInput, type NodeType } from '@embudo/contracts/flows/flow';
import type { BotDetail } from '@embudo/contracts/http/bots';
import { api } from '../../shared/api-client/api-client.ts';
import { errorMessageOr } from '../../shared/api-client/api-error.ts';
import { Button } from '../../shared/ui/Button.tsx';
import { Spinner } from '../../shared/ui/Spinner.tsx';
import { useToast } from '../../shared/ui/use-toast.ts';
import { botsApi, botsKeys } from '../bots/bots.api.ts';
import { connect, createNode, fromBotConfig, isValidConnection, removeNodes, toBotConfig, withoutHandle, type EditorNode } from './flow-editing.ts';
import { JsonViewModal } from './JsonViewModal.tsx';
import { nodeComponents } from './node-components.ts';
import { EditorContext, type EditorColumn, type EditorContextValue, type EditorMember } from './node-shell/editor-context.ts';
import { NODE_DRAG_TYPE, NodePalette } from './NodePalette.tsx';
import { PlaygroundModal } from './PlaygroundModal.tsx';

const validConnection: IsValidConnection = (connection) => isValidConnection(connection);

/** What Guardar Flujo would send, as text: equal texts mean nothing is left to save. */
const flowSnapshot = (name: string, config: BotConfigInput) => JSON.stringify({ name, config });

/** While there is something unsaved, closing or reloading the tab asks the browser's own leave-page question. */
function useLeavePageQuestion(active: boolean) {
  useEffect(() => {
    if (!active) return;
    const ask = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers ask only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [active]);
}

function BotEditor({ bot, slug }: { bot: BotDetail; slug: string }) {
  const toast = useToast();
  const queryClient = useQueryClient();
  const flow = useReactFlow();
  const initial = useMemo(() => fromBotConfig(bot.config), [bot.config]);
  const [nodes, setNodes, onNodesChange] = useNodesState<EditorNode>(initial.nodes);
  const [edges, setEdges, onEdgesChange] = useEdgesState<Edge>(initial.edges);
  const [name, setName] = useState(bot.name);
  const [open, setOpen] = useState<'json' | 'playground' | null>(null);
  const canvasRef = useRef<HTMLDivElement>(null);
  const nodesRef = useRef(nodes);
  const edgesRef = useRef(edges);
  nodesRef.current = nodes;
  edgesRef.current = edges;

  const columns = useQuery({ queryKey: ['columns', 'all'], queryFn: () => api.get<EditorColumn[]>('/api/columns/all') });
  const members = useQuery({ queryKey: ['users'], queryFn: () => api.get<EditorMember[]>('/api/users') });

  const editor = useMemo<EditorContextValue>(
    () => ({
      columns: columns.data ?? [],
      members: members.data ?? [],
      removeNode: (nodeId) => {
        const next = removeNodes(nodesRef.current, edgesRef.current, [nodeId]);
        setNodes(next.nodes);
        setEdges(next.edges);
      },
      dropHandle: (nodeId, handleId) => setEdges((current) => withoutHandle(current, nodeId, handleId)),
    }),
    [columns.data, members.data, setNodes, setEdges],
  );

  const currentConfig = useCallback(() => toBotConfig(nodesRef.current, edgesRef.current), []);
  const [savedSnapshot, setSavedSnapshot] = useState(() => flowSnapshot(bot.name, toBotConfig(initial.nodes, initial.edges)));
  const unsaved = flowSnapshot(name, toBotConfig(nodes, edges)) !== savedSnapshot;
  useLeavePageQuestion(unsaved);

  const addNode = useCallback(
    (type: NodeType, position: { x: number; y: number }) => {
      const created = createNode(type, position, nodesRef.current);
      if ('error' in created) {
        toast.error(created.error);
        return;
      }
      setNodes((current) => [...current, created.node]);
    },
    [setNodes, toast],
  );

  const onConnect = useCallback((connection: Connection) => setEdges((current) => connect(current, connection)), [setEdges]);

  const onDragOver = (event: DragEvent) => {
    if (!event.dataTransfer.types.includes(NODE_DRAG_TYPE)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'move';
  };
  const onDrop = (event: DragEvent) => {
    const type = event.dataTransfer.getData(NODE_DRAG_TYPE) as NodeType;
    if (!knownNodeTypes.includes(type)) return;
    event.preventDefault();
    addNode(type, flow.screenToFlowPosition({ x: event.clientX, y: event.clientY }));
  };
  // A palette click drops the node in the middle of what the canvas shows, a little apart from the last one.
  const addAtCentre = (type: NodeType) => {
    const box = canvasRef.current?.getBoundingClientRect();
    const centre = box ? flow.screenToFlowPosition({ x: box.left + box.width / 2, y: box.top + box.height / 3 }) : { x: 0, y: 0 };
    const offset = (nodesRef.current.length % 5) * 30;
    addNode(type, { x: centre.x - 140 + offset, y: centre.y + offset });
  };

  const save = useMutation({
    mutationFn: (draft: { name: string; config: BotConfigInput }) => botsApi.save(bot.id, draft),
    onSuccess: (saved, draft) => {
      toast.success('Bot guardado exitosamente!');
      setName(saved.name);
      setSavedSnapshot(flowSnapshot(saved.name, draft.config));
      queryClient.setQueryData(botsKeys.one(bot.id), saved);
      void queryClient.invalidateQueries({ queryKey: botsKeys.all, exact: true });
    },
    onError: (error) => toast.error(errorMessageOr(error, 'Fallo al guardar el bot.')),
  });

  return (
    <EditorContext.Provider value={editor}>
      <div className="flex h-[calc(100vh-4rem)] flex-col">
        <header className="flex flex-wrap items-center gap-3 border-b border-slate-200 bg-white px-4 py-3">
          <Link
            to={`/t/${slug}/bots`}
            aria-label="Volver a Bots Studio"
            className="grid size-9 place-items-center rounded-lg text-slate-600 ring-1 ring-slate-300 hover:bg-slate-50"
          >
            <svg viewBox="0 0 24 24" className="size-5" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
              <path d="M15 18l-6-6 6-6" strokeLinecap="round" strokeLinejoin="round" />
            </svg>
          </Link>
          <input
            aria-label="Nombre del bot"
            value={name}
            onChange={(event) => setName(event.target.value)}
            className="min-w-0 flex-1 rounded-lg border border-transparent px-2 py-1.5 text-lg font-semibold text-slate-900 outline-none hover:border-slate-200 focus:border-emerald-500 sm:max-w-sm"
          />
          <span data-testid="node-count" className="rounded-full bg-slate-100 px-2.5 py-1 text-xs font-semibold text-slate-600">
            {nodes.length} {nodes.length === 1 ? 'nodo' : 'nodos'}
          </span>
          <div className="ml-auto flex flex-wrap gap-2">
            <Button variant="secondary" onClick={() => setOpen('json')}>
              Ver JSON
            </Button>
            <Button variant="secondary" onClick={() => setOpen('playground')}>
              Playground
            </Button>
            {unsaved && (
              <span data-testid="unsaved-mark" className="self-center rounded-full bg-amber-100 px-2.5 py-1 text-xs font-semibold text-amber-800">
                Cambios sin guardar
              </span>
            )}
            <Button onClick={() => save.mutate({ name, config: currentConfig() })} disabled={save.isPending}>
              {save.isPending ? 'Guardando...' : 'Guardar Flujo'}
            </Button>
          </div>
        </header>
        <div className="flex min-h-0 flex-1">
          <NodePalette onAdd={addAtCentre} />
          <div ref={canvasRef} className="bot-editor-canvas min-w-0 flex-1" data-testid="flow-canvas" onDragOver={onDragOver} onDrop={onDrop}>
            <ReactFlow<EditorNode, Edge>
              nodes={nodes}
              edges={edges}
              nodeTypes={nodeComponents}
              onNodesChange={onNodesChange}
              onEdgesChange={onEdgesChange}
              onConnect={onConnect}
              isValidConnection={validConnection}
              fitView={initial.nodes.length > 0}
              deleteKeyCode={['Delete', 'Backspace']}
              defaultEdgeOptions={{ animated: true }}
              proOptions={{ hideAttribution: true }}
            >
              <Background gap={20} />
              <Controls />
              <MiniMap pannable zoomable />
            </ReactFlow>
          </div>
        </div>
      </div>
      {open === 'json' && <JsonViewModal config={currentConfig()} onClose={() => setOpen(null)} />}
      {open === 'playground' && <PlaygroundModal botId={bot.id} config={currentConfig} onClose={() => setOpen(null)} />}
    </EditorContext.Provider>
  );
}

/** /t/{slug}/bots/{botId}: the visual flow editor (spec 02 §2 Bot editor). */
export function BotEditorPage() {
  const { tenantSlug = '', botId = '' } = useParams();
  const toast = useToast();
  const bot = useQuery({ queryKey: botsKeys.one(botId), queryFn: () => botsApi.get(botId), staleTime: Infinity, refetchOnWindowFocus: false });

  const loadError = bot.error;
  useEffect(() => {
    if (loadError) toast.error(errorMessageOr(loadError, 'Failed to load bot data'));
  }, [loadError, toast]);

  if (bot.isPending) {
    return (
      <div className="flex h-[calc(100vh-4rem)] flex-col items-center justify-center gap-3 text-slate-500" role="status">
        <Spinner className="size-8 text-emerald-600" />
        <p>Cargando Editor de Bot...</p>
      </div>
    );
  }
  if (bot.isError) {
    return (
      <div className="mx-auto max-w-lg px-4 py-16 text-center">
        <p className="text-sm text-rose-700">Failed to load bot data</p>
        <Link to={`/t/${tenantSlug}/bots`} className="mt-4 inline-block text-sm font-semibold text-emerald-700 hover:text-emerald-800">
          ← Volver a Bots Studio
        </Link>
      </div>
    );
  }
  return (
    <ReactFlowProvider>
      <BotEditor key={bot.data.id} bot={bot.data} slug={tenantSlug} />
    </ReactFlowProvider>
  );
}
