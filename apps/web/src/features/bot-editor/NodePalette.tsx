import type { DragEvent } from 'react';
import { nodeTypes, type NodeType } from '@embudo/contracts/flows/flow';
import { nodeLooks } from './node-catalog.ts';

export const NODE_DRAG_TYPE = 'application/x-embudo-node';

/** Nodes to drag onto the canvas (or click to add). */
export function NodePalette({ onAdd }: { onAdd: (type: NodeType) => void }) {
  const startDrag = (event: DragEvent, type: NodeType) => {
    event.dataTransfer.setData(NODE_DRAG_TYPE, type);
    event.dataTransfer.effectAllowed = 'move';
  };
  return (
    <aside aria-label="Nodos" className="w-60 shrink-0 overflow-y-auto border-r border-slate-200 bg-white p-3">
      <p className="px-1 text-xs font-semibold tracking-wide text-slate-500 uppercase">Nodos</p>
      <p className="mt-1 px-1 text-xs text-slate-400">Arrastra un nodo al lienzo.</p>
      <ul className="mt-3 space-y-2">
        {nodeTypes.map((type) => (
          <li key={type}>
            <button
              type="button"
              draggable
              data-testid={`palette-${type}`}
              onDragStart={(event) => startDrag(event, type)}
              onClick={() => onAdd(type)}
              className="flex w-full cursor-grab items-center gap-2.5 rounded-lg bg-slate-50 px-2.5 py-2 text-left ring-1 ring-slate-200 hover:bg-white hover:ring-emerald-300 active:cursor-grabbing"
            >
              <span className={`size-2.5 shrink-0 rounded-full ${nodeLooks[type].accent}`} aria-hidden="true" />
              <span className="min-w-0">
                <span className="block text-sm font-medium text-slate-800">{nodeLooks[type].title}</span>
                <span className="block truncate text-[11px] text-slate-500">{nodeLooks[type].description}</span>
              </span>
            </button>
          </li>
        ))}
      </ul>
    </aside>
  );
}
