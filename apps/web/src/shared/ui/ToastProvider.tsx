import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { ToastContext, type ToastApi, type ToastType } from './toast-context.ts';

/** Spec 01 §9: notifications close by themselves after 5 seconds. */
export const TOAST_DURATION_MS = 5000;

interface Toast {
  id: number;
  type: ToastType;
  message: string;
}

const styles: Record<ToastType, { box: string; icon: ReactNode }> = {
  success: {
    box: 'border-emerald-200 bg-white text-slate-800 [&_.toast-icon]:bg-emerald-100 [&_.toast-icon]:text-emerald-600',
    icon: <path d="m5 10.5 3 3 7-7" strokeLinecap="round" strokeLinejoin="round" />,
  },
  error: {
    box: 'border-rose-200 bg-rose-50 text-rose-800 [&_.toast-icon]:bg-rose-100 [&_.toast-icon]:text-rose-600',
    icon: <path d="M10 6v5m0 3h.01" strokeLinecap="round" />,
  },
  info: {
    box: 'border-sky-200 bg-white text-slate-800 [&_.toast-icon]:bg-sky-100 [&_.toast-icon]:text-sky-600',
    icon: <path d="M10 9v5m0-8h.01" strokeLinecap="round" />,
  },
};

function ToastItem({ toast, onClose }: { toast: Toast; onClose: (id: number) => void }) {
  useEffect(() => {
    const timer = setTimeout(() => onClose(toast.id), TOAST_DURATION_MS);
    return () => clearTimeout(timer);
  }, [toast.id, onClose]);

  const style = styles[toast.type];
  return (
    <div
      role={toast.type === 'error' ? 'alert' : 'status'}
      data-type={toast.type}
      className={`pointer-events-auto flex w-full items-start gap-3 rounded-xl border p-3 pr-2 shadow-lg shadow-slate-900/5 ${style.box}`}
    >
      <span className="toast-icon grid size-6 shrink-0 place-items-center rounded-full">
        <svg viewBox="0 0 20 20" className="size-4" fill="none" stroke="currentColor" strokeWidth="2.2" aria-hidden="true">
          {style.icon}
        </svg>
      </span>
      <p className="flex-1 pt-0.5 text-sm font-medium">{toast.message}</p>
      <button
        type="button"
        onClick={() => onClose(toast.id)}
        className="rounded-md p-1 text-slate-400 hover:bg-black/5 hover:text-slate-600"
        aria-label="Descartar notificación"
      >
        <svg viewBox="0 0 20 20" className="size-4" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
          <path d="m6 6 8 8M14 6l-8 8" strokeLinecap="round" />
        </svg>
      </button>
    </div>
  );
}

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const nextId = useRef(1);

  const dismiss = useCallback((id: number) => setToasts((current) => current.filter((toast) => toast.id !== id)), []);

  const api = useMemo<ToastApi>(() => {
    const show = (type: ToastType, message: string) => {
      const id = nextId.current++;
      setToasts((current) => [...current, { id, type, message }]);
    };
    return {
      show,
      success: (message) => show('success', message),
      error: (message) => show('error', message),
      info: (message) => show('info', message),
    };
  }, []);

  return (
    <ToastContext.Provider value={api}>
      {children}
      {/* Bottom left, stacked upwards: the header (connection status, user menu) and the pages'
          own actions sit at the top right, and an open chat's composer at the bottom right. On a
          phone the chat fills the screen, so toasts float above its composer. */}
      <div
        data-testid="toasts"
        className="pointer-events-none fixed inset-x-4 bottom-32 z-[60] flex max-w-sm flex-col gap-2 sm:right-auto sm:bottom-6 sm:left-6 sm:w-96"
      >
        {toasts.map((toast) => (
          <ToastItem key={toast.id} toast={toast} onClose={dismiss} />
        ))}
      </div>
    </ToastContext.Provider>
  );
}
