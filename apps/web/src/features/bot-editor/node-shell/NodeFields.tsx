import { useId, type ReactNode } from 'react';
import { isMaskedSecret } from '@embudo/contracts/flows/node-secrets';

const inputClass =
  'block w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 text-xs text-slate-900 outline-none focus:border-emerald-500 focus:ring-2 focus:ring-emerald-100';

function FieldFrame({ label, id, children, hint }: { label: string; id: string; children: ReactNode; hint?: string }) {
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-[11px] font-medium text-slate-600">
        {label}
      </label>
      {children}
      {hint && <p className="mt-1 text-[10px] text-slate-400">{hint}</p>}
    </div>
  );
}

export function NodeTextField({
  label,
  value,
  onChange,
  placeholder,
  hint,
  type = 'text',
}: {
  label: string;
  value: unknown;
  onChange: (value: string) => void;
  placeholder?: string;
  hint?: string;
  type?: 'text' | 'number' | 'email' | 'url' | 'password';
}) {
  const id = useId();
  return (
    <FieldFrame label={label} id={id} hint={hint}>
      <input
        id={id}
        type={type}
        className={inputClass}
        value={typeof value === 'string' || typeof value === 'number' ? value : ''}
        placeholder={placeholder}
        onChange={(event) => onChange(event.target.value)}
      />
    </FieldFrame>
  );
}

/**
 * A write-only credential: the server answers a stored one masked and keeps it while the mask comes
 * back unchanged; "Cambiar" empties the field to type a new one (saved empty, it is removed).
 */
export function NodeSecretField({ label, value, onChange, hint }: { label: string; value: unknown; onChange: (value: string) => void; hint?: string }) {
  const id = useId();
  const text = typeof value === 'string' ? value : '';
  if (!isMaskedSecret(text)) return <NodeTextField label={label} type="password" value={text} onChange={onChange} hint={hint} />;
  return (
    <FieldFrame label={label} id={id} hint="Guardado cifrado: no se vuelve a mostrar.">
      <div className="flex items-center gap-1.5">
        <input id={id} readOnly className={`${inputClass} bg-slate-50 text-slate-500`} value={text} />
        <button
          type="button"
          onClick={() => onChange('')}
          className="shrink-0 rounded-md px-2 py-1.5 text-[11px] font-medium text-emerald-700 hover:bg-emerald-50"
        >
          Cambiar
        </button>
      </div>
    </FieldFrame>
  );
}

export function NodeTextArea({
  label,
  value,
  onChange,
  placeholder,
  hint,
  rows = 3,
}: {
  label: string;
  value: unknown;
  onChange: (value: string) => void;
  placeholder?: string;
  hint?: string;
  rows?: number;
}) {
  const id = useId();
  return (
    <FieldFrame label={label} id={id} hint={hint}>
      <textarea
        id={id}
        rows={rows}
        className={`${inputClass} resize-y`}
        value={typeof value === 'string' ? value : ''}
        placeholder={placeholder}
        onChange={(event) => onChange(event.target.value)}
      />
    </FieldFrame>
  );
}

export function NodeSelect({
  label,
  value,
  onChange,
  children,
  hint,
}: {
  label: string;
  value: unknown;
  onChange: (value: string) => void;
  children: ReactNode;
  hint?: string;
}) {
  const id = useId();
  return (
    <FieldFrame label={label} id={id} hint={hint}>
      <select id={id} className={inputClass} value={typeof value === 'string' ? value : ''} onChange={(event) => onChange(event.target.value)}>
        {children}
      </select>
    </FieldFrame>
  );
}

/** The label every node has: how the node is named on the canvas. */
export function NodeLabelField({ value, onChange }: { value: unknown; onChange: (value: string) => void }) {
  return <NodeTextField label="Etiqueta" value={value} onChange={onChange} />;
}

export const VARIABLES_HINT = 'Usa {{variable}} para insertar valores, p. ej. {{contact_name}} o {{user_response}}.';
