/** The Embudo mark (a funnel) and word. */
export function BrandLogo({ className = '', inverted = false }: { className?: string; inverted?: boolean }) {
  return (
    <span className={`inline-flex items-center gap-2 ${className}`}>
      <span className={`grid size-8 place-items-center rounded-lg shadow-sm ${inverted ? 'bg-white text-emerald-600' : 'bg-emerald-600 text-white'}`}>
        <svg viewBox="0 0 24 24" className="size-5" fill="currentColor" aria-hidden="true">
          <path d="M3 5h18l-7 8.5V19l-4 2v-7.5z" />
        </svg>
      </span>
      <span className={`text-lg font-bold tracking-tight ${inverted ? 'text-white' : 'text-slate-900'}`}>Embudo</span>
    </span>
  );
}
