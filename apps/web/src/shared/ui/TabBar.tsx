export interface TabDefinition<T extends string> {
  id: T;
  label: string;
  disabled?: boolean;
  /** Shown as a tooltip, e.g. why a tab is disabled. */
  title?: string;
}

/** A row of tabs (role tablist); the caller renders the selected panel. */
export function TabBar<T extends string>({
  tabs,
  selected,
  onSelect,
  label,
}: {
  tabs: Array<TabDefinition<T>>;
  selected: T;
  onSelect: (id: T) => void;
  label: string;
}) {
  return (
    <div role="tablist" aria-label={label} className="mb-5 flex gap-1 rounded-xl bg-slate-100 p-1">
      {tabs.map((tab) => (
        <button
          key={tab.id}
          type="button"
          role="tab"
          aria-selected={selected === tab.id}
          disabled={tab.disabled}
          title={tab.title}
          onClick={() => onSelect(tab.id)}
          className={`flex-1 rounded-lg px-3 py-2 text-sm font-medium transition disabled:cursor-not-allowed disabled:text-slate-400 ${
            selected === tab.id ? 'bg-white text-slate-900 shadow-sm' : 'text-slate-500 hover:text-slate-700'
          }`}
        >
          {tab.label}
        </button>
      ))}
    </div>
  );
}
