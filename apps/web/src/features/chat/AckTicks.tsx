import type { MessageAck } from './chat.api.ts';

const labels: Record<MessageAck, string> = { [-1]: 'Error', 0: 'Enviando', 1: 'Enviado', 2: 'Entregado', 3: 'Leído' };

function Check() {
  return <path d="M1.5 8.5 4.8 11.8 11.5 4.5" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" strokeLinejoin="round" />;
}

/** Ticks of an outgoing message from its ack: clock 0, ✓ 1, ✓✓ 2, blue ✓✓ 3, red ! -1 (with the error as tooltip). */
export function AckTicks({ ack, error }: { ack: MessageAck; error?: string | null }) {
  const label = ack === -1 && error ? `${labels[-1]}: ${error}` : (labels[ack] ?? labels[0]);
  const common = { 'data-testid': 'ack-ticks', 'data-ack': ack, role: 'img', 'aria-label': label, title: label };
  if (ack === -1) {
    return (
      <span {...common} className="inline-grid size-4 place-items-center rounded-full bg-rose-500 text-[10px] leading-none font-bold text-white">
        !
      </span>
    );
  }
  if (ack <= 0) {
    return (
      <svg {...common} viewBox="0 0 16 16" className="size-3.5 text-slate-400">
        <circle cx="8" cy="8" r="6" fill="none" stroke="currentColor" strokeWidth="1.4" />
        <path d="M8 4.8V8l2.2 1.4" fill="none" stroke="currentColor" strokeWidth="1.4" strokeLinecap="round" />
      </svg>
    );
  }
  if (ack === 1) {
    return (
      <svg {...common} viewBox="0 0 13 16" className="h-3.5 w-3 text-slate-400">
        <Check />
      </svg>
    );
  }
  return (
    <svg {...common} viewBox="0 0 18 16" className={`h-3.5 w-4 ${ack === 3 ? 'text-sky-500' : 'text-slate-400'}`}>
      <Check />
      <g transform="translate(5 0)">
        <Check />
      </g>
    </svg>
  );
}
