import { useState } from 'react';

/** Edits one of the customer's texts in place, as WhatsApp does: Enter or Guardar keeps it, Escape or Cancelar leaves it. */
export function PhoneMessageEditor({ text, onSave, onCancel }: { text: string; onSave: (text: string) => void; onCancel: () => void }) {
  const [draft, setDraft] = useState(text);
  const trimmed = draft.trim();
  const savable = trimmed.length > 0 && trimmed !== text;
  const save = () => {
    if (savable) onSave(trimmed);
  };
  return (
    <div className="px-1">
      <textarea
        aria-label="Editar mensaje"
        autoFocus
        rows={2}
        maxLength={4096}
        value={draft}
        onChange={(event) => setDraft(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && !event.shiftKey) {
            event.preventDefault();
            save();
          } else if (event.key === 'Escape') {
            onCancel();
          }
        }}
        className="w-full resize-none rounded-md border border-emerald-300 bg-white px-2 py-1 text-sm focus:ring-2 focus:ring-emerald-500 focus:outline-none"
      />
      <div className="mt-1 flex justify-end gap-2 text-xs font-medium">
        <button type="button" onClick={onCancel} className="rounded px-2 py-1 text-slate-600 hover:bg-black/5">
          Cancelar
        </button>
        <button
          type="button"
          disabled={!savable}
          onClick={save}
          className="rounded bg-emerald-600 px-2 py-1 text-white hover:bg-emerald-700 disabled:opacity-50"
        >
          Guardar
        </button>
      </div>
    </div>
  );
}
