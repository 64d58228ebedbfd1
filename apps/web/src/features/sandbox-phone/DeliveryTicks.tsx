import type { PhoneMessageStatus } from '@embudo/contracts/http/sandbox-phone';

const labels: Record<PhoneMessageStatus, string> = {
  submitted: 'Pendiente',
  enqueued: 'Pendiente',
  sent: 'Enviado',
  delivered: 'Entregado',
  read: 'Leído',
  failed: 'No entregado',
};

function Check({ className = '' }: { className?: string }) {
  return (
    <path
      className={className}
      d="M1.5 8.5 4.8 11.8 11.5 4.5"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.6"
      strokeLinecap="round"
      strokeLinejoin="round"
    />
  );
}

/**
 * WhatsApp's delivery marks: ✓ sent, ✓✓ delivered, blue ✓✓ read, ❗ failed. On the customer's own messages the
 * blue ticks mean the business opened the chat (its read receipt).
 */
export function DeliveryTicks({ status }: { status: PhoneMessageStatus }) {
  const label = labels[status];
  const common = { 'data-testid': 'ticks', 'data-status': status, role: 'img', 'aria-label': label, title: label };
  if (status === 'failed') {
    return (
      <span {...common} className="inline-grid size-4 place-items-center rounded-full bg-rose-500 text-[10px] leading-none font-bold text-white">
        !
      </span>
    );
  }
  if (status === 'submitted' || status === 'enqueued') {
    return (
      <svg {...common} viewBox="0 0 16 16" className="size-3.5 text-slate-400">
        <circle cx="8" cy="8" r="6" fill="none" stroke="currentColor" strokeWidth="1.4" />
        <path d="M8 4.8V8l2.2 1.4" fill="none" stroke="currentColor" strokeWidth="1.4" strokeLinecap="round" />
      </svg>
    );
  }
  const color = status === 'read' ? 'text-sky-500' : 'text-slate-400';
  return (
    <svg {...common} viewBox={status === 'sent' ? '0 0 13 16' : '0 0 18 16'} className={`h-3.5 ${status === 'sent' ? 'w-3' : 'w-4'} ${color}`}>
      {status === 'sent' ? (
        <Check />
      ) : (
        <>
          <Check />
          <g transform="translate(5 0)">
            <Check />
          </g>
        </>
      )}
    </svg>
  );
}
