import { Handle, Position } from '@xyflow/react';
import type { ReactNode } from 'react';
import type { NodeType } from '@embudo/contracts/flows/flow';
import { NODE_WIDTH, nodeLooks } from '../node-catalog.ts';
import { useEditor } from './editor-context.ts';

const handleClass = '!size-3.5 !border-2 !border-white !bg-slate-500';

/**
 * The frame of every node on the canvas: coloured header with the node's label and a delete button,
 * an input handle on top (none for the trigger), and one output handle below unless the node draws its own.
 */
export function NodeShell({
  id,
  type,
  label,
  children,
  input = true,
  output = true,
  selected,
}: {
  id: string;
  type: NodeType;
  label: unknown;
  children?: ReactNode;
  input?: boolean;
  output?: boolean;
  selected?: boolean;
}) {
  const editor = useEditor();
  const look = nodeLooks[type];
  const title = typeof label === 'string' && label ? label : look.title;
  return (
    <div
      data-testid={`flow-node-${type}`}
      aria-label={`Nodo ${title}`}
      style={{ width: NODE_WIDTH }}
      className={`rounded-xl bg-white text-left shadow-md ring-1 ${selected ? 'ring-2 ring-emerald-500' : 'ring-slate-200'}`}
    >
      {input && <Handle type="target" position={Position.Top} className={handleClass} />}
      <div className={`flex items-center justify-between gap-2 rounded-t-xl px-3 py-2 ${look.accent}`}>
        <div className="min-w-0">
          <p className="text-[10px] font-semibold tracking-wide uppercase opacity-80">{look.title}</p>
          <p className="truncate text-sm font-semibold">{title}</p>
        </div>
        <button
          type="button"
          className="nodrag grid size-7 shrink-0 place-items-center rounded-md text-lg leading-none opacity-80 hover:bg-white/20 hover:opacity-100"
          aria-label={`Eliminar nodo ${title}`}
          onClick={() => editor.removeNode(id)}
        >
          ×
        </button>
      </div>
      <div className="nodrag nowheel space-y-2.5 p-3 text-xs">{children}</div>
      {output && <Handle type="source" position={Position.Bottom} className={handleClass} />}
    </div>
  );
}

/** A row with an output handle on the node's right edge, named after its branch (an option id, 'true' or 'false'). */
export function BranchRow({ handleId, children }: { handleId: string; children: ReactNode }) {
  return (
    <div className="relative -mr-3 flex items-center gap-1.5 pr-4" data-testid={`branch-${handleId}`}>
      {children}
      <Handle type="source" id={handleId} position={Position.Right} className={`${handleClass} !bg-indigo-500`} />
    </div>
  );
}
