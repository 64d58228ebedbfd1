import { useEffect, useState } from 'react';
import { conversationWindow, conversationWindowLabel } from './conversation-window.ts';

const styles = {
  open: 'bg-emerald-50 text-emerald-700 ring-emerald-200',
  closing: 'bg-amber-50 text-amber-800 ring-amber-300',
  closed: 'bg-rose-50 text-rose-700 ring-rose-200',
} as const;

/** Re-reads the clock every 30 s so the minutes left stay current while the chat is open. */
export function useNow(intervalMs = 30_000) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), intervalMs);
    return () => window.clearInterval(timer);
  }, [intervalMs]);
  return now;
}

export function WindowIndicator({ contactLastMessageAt, now }: { contactLastMessageAt: string | null | undefined; now: number }) {
  const current = conversationWindow(contactLastMessageAt, now);
  return (
    <span
      data-testid="window-indicator"
      data-state={current.state}
      title="Ventana de 24 horas para responder con mensajes libres"
      className={`inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${styles[current.state]}`}
    >
      <svg viewBox="0 0 16 16" className="size-3" fill="none" stroke="currentColor" strokeWidth="1.6" aria-hidden="true">
        <circle cx="8" cy="8" r="6.2" />
        <path d="M8 4.6V8l2.2 1.4" strokeLinecap="round" />
      </svg>
      {conversationWindowLabel(current)}
    </span>
  );
}
