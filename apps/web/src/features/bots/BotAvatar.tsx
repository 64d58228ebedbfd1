import type { BotType } from '@embudo/contracts/http/bots';

const looks: Record<BotType, { path: string; tone: string }> = {
  scheduling: { path: 'M8 7V3m8 4V3M4 11h16M5 5h14a1 1 0 0 1 1 1v13a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V6a1 1 0 0 1 1-1Z', tone: 'bg-sky-100 text-sky-700' },
  billing: { path: 'M3 7h18v10H3zM3 10h18M7 15h3', tone: 'bg-amber-100 text-amber-700' },
};

/** A bot's avatar_icon, drawn after its type (spec 02 §3 Bot). */
export function BotAvatar({ type }: { type: BotType }) {
  const look = looks[type];
  return (
    <span className={`grid size-12 shrink-0 place-items-center rounded-xl ${look.tone}`} aria-hidden="true">
      <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" className="size-6">
        <path d={look.path} />
      </svg>
    </span>
  );
}
