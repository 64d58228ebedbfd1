import { useEffect, useId, useRef, useState } from 'react';

/** The quick reactions WhatsApp offers first. */
export const QUICK_REACTIONS = ['👍', '❤️', '😂', '😮', '😢', '🙏'] as const;

export interface PhoneMessageMenuProps {
  /** The customer's current reaction to the message, if any. */
  reaction?: string;
  /** The customer's own text message: it may be edited. */
  canEdit: boolean;
  /** The customer's own message: it may be deleted. */
  canDelete: boolean;
  disabled: boolean;
  /** Which side the bubble hangs from: the button sits beside it, towards the middle of the chat. */
  side: 'left' | 'right';
  onReact: (emoji: string | null) => void;
  onEdit: () => void;
  onDelete: () => void;
}

const itemStyle = 'block w-full px-3 py-1.5 text-left hover:bg-slate-50 disabled:cursor-not-allowed disabled:opacity-60';

/** A bubble's options, as WhatsApp's long press offers them: react, and edit or delete one's own message. */
export function PhoneMessageMenu({ reaction, canEdit, canDelete, disabled, side, onReact, onEdit, onDelete }: PhoneMessageMenuProps) {
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const reactLabelId = useId();

  useEffect(() => {
    if (!open) return;
    const closeOutside = (event: MouseEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpen(false);
    };
    document.addEventListener('mousedown', closeOutside);
    document.addEventListener('keydown', closeOnEscape);
    return () => {
      document.removeEventListener('mousedown', closeOutside);
      document.removeEventListener('keydown', closeOnEscape);
    };
  }, [open]);

  const choose = (action: () => void) => () => {
    setOpen(false);
    action();
  };

  return (
    <div ref={rootRef} className={`absolute top-1 ${side === 'left' ? '-right-8' : '-left-8'} z-10`}>
      <button
        type="button"
        aria-label="Opciones del mensaje"
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={() => setOpen((value) => !value)}
        className={`rounded-full p-1 text-slate-500 hover:bg-black/10 hover:text-slate-800 focus:opacity-100 ${open ? 'opacity-100' : 'opacity-0 group-hover:opacity-100'}`}
      >
        <svg viewBox="0 0 20 20" className="size-4" fill="none" stroke="currentColor" strokeWidth="1.8" aria-hidden="true">
          <path d="m5 8 5 5 5-5" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
      </button>
      {open && (
        <div
          role="menu"
          aria-label="Opciones del mensaje"
          className={`absolute ${side === 'left' ? 'left-0' : 'right-0'} mt-1 w-56 rounded-lg bg-white py-1 text-sm text-slate-900 shadow-lg ring-1 ring-slate-200`}
        >
          <div role="group" aria-labelledby={reactLabelId} className="px-3 pt-1 pb-2">
            <p id={reactLabelId} className="pb-1 text-xs font-semibold text-slate-500">
              Reaccionar
            </p>
            <div className="flex justify-between">
              {QUICK_REACTIONS.map((emoji) => (
                <button
                  key={emoji}
                  type="button"
                  role="menuitemradio"
                  aria-checked={reaction === emoji}
                  aria-label={`Reaccionar con ${emoji}`}
                  disabled={disabled}
                  onClick={choose(() => onReact(emoji))}
                  className={`grid size-8 place-items-center rounded-full text-lg leading-none hover:bg-slate-100 disabled:opacity-60 ${reaction === emoji ? 'bg-slate-200' : ''}`}
                >
                  {emoji}
                </button>
              ))}
            </div>
          </div>
          {reaction && (
            <button type="button" role="menuitem" disabled={disabled} onClick={choose(() => onReact(null))} className={itemStyle}>
              Quitar reacción
            </button>
          )}
          {canEdit && (
            <button type="button" role="menuitem" disabled={disabled} onClick={choose(onEdit)} className={itemStyle}>
              Editar
            </button>
          )}
          {canDelete && (
            <button type="button" role="menuitem" disabled={disabled} onClick={choose(onDelete)} className={`${itemStyle} text-rose-700`}>
              Eliminar para todos
            </button>
          )}
        </div>
      )}
    </div>
  );
}
