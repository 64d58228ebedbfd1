import { useRef, useState } from 'react';
import type { FunnelSummary } from './board.api.ts';

interface FunnelSelectorProps {
  funnels: FunnelSummary[];
  selectedId: string;
  onSelect: (funnelId: string) => void;
  /** Absent for viewers: the pencil is not shown. */
  onRename?: (funnel: FunnelSummary, name: string) => void;
}

/** The funnel picker with inline rename (pencil → input; Enter or blur saves, Escape cancels). */
export function FunnelSelector({ funnels, selectedId, onSelect, onRename }: FunnelSelectorProps) {
  const selected = funnels.find((funnel) => funnel.id === selectedId);
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState('');
  // Enter then the input's removal may both end the edit; only the first one counts.
  const ended = useRef(false);

  const finish = (save: boolean) => {
    if (ended.current) return;
    ended.current = true;
    setEditing(false);
    if (save && selected) onRename?.(selected, draft);
  };

  if (editing && selected) {
    return (
      <input
        autoFocus
        aria-label="Nombre del funnel"
        value={draft}
        onChange={(event) => setDraft(event.target.value)}
        onBlur={() => finish(true)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') finish(true);
          if (event.key === 'Escape') finish(false);
        }}
        className="h-9 w-56 rounded-lg border border-emerald-400 px-3 text-sm font-medium outline-none focus:ring-4 focus:ring-emerald-100"
      />
    );
  }

  return (
    <div className="flex items-center gap-1">
      <select
        aria-label="Funnel"
        value={selectedId}
        onChange={(event) => onSelect(event.target.value)}
        className="h-9 max-w-64 rounded-lg border border-slate-300 bg-white px-3 text-sm font-medium shadow-sm outline-none focus:border-emerald-500"
      >
        {funnels.map((funnel) => (
          <option key={funnel.id} value={funnel.id}>
            {funnel.name}
            {funnel.unreadCount > 0 ? ` (${funnel.unreadCount})` : ''}
          </option>
        ))}
      </select>
      {onRename && (
        <button
          type="button"
          aria-label="Renombrar funnel"
          title="Renombrar funnel"
          disabled={!selected}
          onClick={() => {
            setDraft(selected?.name ?? '');
            ended.current = false;
            setEditing(true);
          }}
          className="rounded-lg p-2 text-slate-500 hover:bg-slate-100 hover:text-slate-800"
        >
          ✎
        </button>
      )}
    </div>
  );
}
