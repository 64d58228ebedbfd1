import type { ConnectionStatus } from '../../shared/realtime-client/realtime-context.ts';
import { useRealtime } from '../../shared/realtime-client/use-realtime.ts';

const looks: Record<ConnectionStatus, { text: string; dot: string; box: string; title: string }> = {
  connected: {
    text: 'Conectado',
    dot: 'bg-emerald-500',
    box: 'bg-emerald-50 text-emerald-700 ring-emerald-200',
    title: 'Recibiendo actualizaciones en tiempo real',
  },
  connecting: {
    text: 'Conectando...',
    dot: 'bg-amber-400 animate-pulse',
    box: 'bg-amber-50 text-amber-700 ring-amber-200',
    title: 'Conectando con el servidor',
  },
  disconnected: {
    text: 'Desconectado',
    dot: 'bg-rose-500',
    box: 'bg-rose-50 text-rose-700 ring-rose-200 hover:bg-rose-100',
    title: 'Haz clic para reintentar la conexión',
  },
};

/** Realtime connection state; a click reconnects, but only when disconnected. */
export function ConnectionStatusButton() {
  const { status, retry } = useRealtime();
  const look = looks[status];
  return (
    <button
      type="button"
      data-testid="connection-status"
      data-status={status}
      title={look.title}
      onClick={() => {
        if (status === 'disconnected') retry();
      }}
      className={`inline-flex h-8 shrink-0 items-center gap-2 rounded-full px-3 text-xs font-semibold ring-1 ring-inset transition ${look.box} ${
        status === 'disconnected' ? 'cursor-pointer' : 'cursor-default'
      }`}
    >
      <span className="relative flex size-2">
        {status === 'connected' && <span className="absolute inline-flex size-full animate-ping rounded-full bg-emerald-400 opacity-60" />}
        <span className={`relative inline-flex size-2 rounded-full ${look.dot}`} />
      </span>
      <span className="max-sm:sr-only">{look.text}</span>
    </button>
  );
}
