import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { CONTACT_SEARCH_DEBOUNCE_MS, CONTACT_SEARCH_MIN_LENGTH } from '@embudo/contracts/http/agenda';
import { useDebouncedValue } from '../../shared/hooks/use-debounced-value.ts';
import { agendaApi, type ContactSearchResult } from './agenda.api.ts';

/** What to search for: the typed text once it has more than 2 characters and has stopped changing. */
export function contactQuery(typed: string, settled: string): string | null {
  const text = typed.trim();
  return text.length >= CONTACT_SEARCH_MIN_LENGTH && text === settled.trim() ? text : null;
}

/**
 * Finds a chat contact by name or phone once more than 2 characters stopped changing for 300 ms
 * (spec 02 §5); picking one fills the client's name and WhatsApp.
 */
export function ContactSearch({ onPick, disabled = false }: { onPick: (contact: ContactSearchResult) => void; disabled?: boolean }) {
  const id = useId();
  const [text, setText] = useState('');
  const query = contactQuery(text, useDebouncedValue(text, CONTACT_SEARCH_DEBOUNCE_MS));
  const searching = query !== null;
  const results = useQuery({
    queryKey: ['agenda', 'contacts', query],
    queryFn: ({ signal }) => agendaApi.searchContacts(query!, signal),
    enabled: searching,
    staleTime: 30_000,
  });

  return (
    <div className="relative">
      <label htmlFor={id} className="mb-1.5 block text-sm font-medium text-slate-700">
        Buscar contacto
      </label>
      <input
        id={id}
        type="search"
        value={text}
        disabled={disabled}
        autoComplete="off"
        placeholder="Nombre o teléfono de un chat"
        onChange={(event) => setText(event.target.value)}
        className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2.5 text-sm shadow-sm outline-none focus:border-emerald-500 focus:ring-4 focus:ring-emerald-100"
      />
      {searching && (
        <div className="mt-1 rounded-lg border border-slate-200 bg-white text-sm shadow-sm" data-testid="contact-results">
          {results.isPending ? (
            <p className="px-3 py-2 text-slate-500">Buscando…</p>
          ) : results.isError ? (
            <p className="px-3 py-2 text-rose-600">No se pudo buscar. Inténtalo de nuevo.</p>
          ) : results.data?.length ? (
            <ul aria-label="Contactos encontrados" className="max-h-40 overflow-y-auto py-1">
              {results.data.map((contact) => (
                <li key={contact.id}>
                  <button
                    type="button"
                    onClick={() => {
                      onPick(contact);
                      setText('');
                    }}
                    className="flex w-full items-center justify-between gap-3 px-3 py-1.5 text-left hover:bg-emerald-50"
                  >
                    <span className="truncate font-medium text-slate-800">{contact.name}</span>
                    <span className="shrink-0 text-xs text-slate-500">{contact.phone}</span>
                  </button>
                </li>
              ))}
            </ul>
          ) : (
            <p className="px-3 py-2 text-slate-500">Sin resultados.</p>
          )}
        </div>
      )}
    </div>
  );
}
