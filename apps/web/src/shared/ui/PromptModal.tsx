import { useId, useState, type KeyboardEvent } from 'react';
import { Button } from './Button.tsx';
import { Modal } from './Modal.tsx';

export interface PromptOptions {
  title: string;
  message?: string;
  /** Label of the text input; defaults to the title. */
  label?: string;
  defaultValue?: string;
  placeholder?: string;
  confirmText?: string;
  cancelText?: string;
  /** Returns the message to show inline when the value is not acceptable. */
  validate?: (value: string) => string | null | undefined;
  destructive?: boolean;
}

export type ConfirmOptions = Omit<PromptOptions, 'label' | 'defaultValue' | 'placeholder' | 'validate'>;

interface PromptModalProps extends PromptOptions {
  withInput: boolean;
  onConfirm: (value: string) => void;
  onCancel: () => void;
}

/** The generic prompt/confirm dialog: Enter confirms, Escape cancels, blank input cannot be confirmed. */
export function PromptModal({
  title,
  message,
  label,
  defaultValue = '',
  placeholder,
  confirmText = 'Aceptar',
  cancelText = 'Cancelar',
  validate,
  destructive = false,
  withInput,
  onConfirm,
  onCancel,
}: PromptModalProps) {
  const inputId = useId();
  const [value, setValue] = useState(defaultValue);
  const [error, setError] = useState<string | null>(null);
  const blank = withInput && value.trim() === '';

  const confirm = () => {
    if (!withInput) return onConfirm('');
    if (blank) return;
    const problem = validate?.(value) ?? null;
    setError(problem);
    if (!problem) onConfirm(value);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    // A focused button answers Enter itself (e.g. Cancelar); elsewhere Enter confirms.
    if (event.key !== 'Enter' || event.nativeEvent.isComposing || event.target instanceof HTMLButtonElement) return;
    event.preventDefault();
    confirm();
  };

  return (
    <Modal
      title={title}
      onClose={onCancel}
      size="sm"
      footer={
        <>
          <Button variant="secondary" onClick={onCancel}>
            {cancelText}
          </Button>
          <Button variant={destructive ? 'danger' : 'primary'} onClick={confirm} disabled={blank} data-autofocus={withInput ? undefined : true}>
            {confirmText}
          </Button>
        </>
      }
    >
      <div onKeyDown={onKeyDown}>
        {message && <p className="text-sm text-slate-600">{message}</p>}
        {withInput && (
          <div className={message ? 'mt-4' : ''}>
            <label htmlFor={inputId} className="mb-1.5 block text-sm font-medium text-slate-700">
              {label ?? title}
            </label>
            <input
              id={inputId}
              value={value}
              placeholder={placeholder}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${inputId}-error` : undefined}
              onChange={(event) => {
                setValue(event.target.value);
                if (error) setError(validate?.(event.target.value) ?? null);
              }}
              className="block w-full rounded-lg border border-slate-300 px-3 py-2.5 text-sm shadow-sm outline-none focus:border-emerald-500 focus:ring-4 focus:ring-emerald-100"
            />
            {error && (
              <p id={`${inputId}-error`} className="mt-1.5 text-sm text-rose-600">
                {error}
              </p>
            )}
          </div>
        )}
      </div>
    </Modal>
  );
}
