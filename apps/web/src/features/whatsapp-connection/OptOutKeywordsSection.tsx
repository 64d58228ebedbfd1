import { useEffect, useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { OPT_OUT_KEYWORDS_SAVED, optOutKeywordsRequest } from '@embudo/contracts/http/whatsapp';
import { errorMessageOr } from '../../shared/api-client/api-error.ts';
import { Button } from '../../shared/ui/Button.tsx';
import { Spinner } from '../../shared/ui/Spinner.tsx';
import { TextField } from '../../shared/ui/TextField.tsx';
import { useToast } from '../../shared/ui/use-toast.ts';
import { optOutKeywordsApi } from './opt-out-keywords.api.ts';

const queryKey = ['whatsapp-opt-out-keywords'];

export const OPT_OUT_EXPLANATION =
  'Si un cliente escribe solo una de estas palabras, deja de recibir plantillas de marketing. Puede volver a recibirlas si lo pide desde WhatsApp.';

/** "baja, Stop ,, alto" → ['baja', 'Stop', 'alto']: the server trims, capitalises and drops repeats the same way. */
export const keywordsOf = (text: string) =>
  text
    .split(',')
    .map((word) => word.trim())
    .filter((word) => word.length > 0);

function OptOutKeywordsEditor() {
  const toast = useToast();
  const queryClient = useQueryClient();
  const keywords = useQuery({ queryKey, queryFn: optOutKeywordsApi.load, retry: false });
  const [text, setText] = useState<string | null>(null);
  const [error, setError] = useState<string | undefined>();

  useEffect(() => {
    if (keywords.data) setText(keywords.data.keywords.join(', '));
  }, [keywords.data]);

  const save = useMutation({
    mutationFn: optOutKeywordsApi.save,
    onSuccess: (saved) => {
      queryClient.setQueryData(queryKey, saved);
      toast.success(OPT_OUT_KEYWORDS_SAVED);
    },
    onError: (failure) => setError(errorMessageOr(failure, 'No se pudieron guardar las palabras de baja.')),
  });

  // Its own form: saving the words never submits (nor waits on) the connection's form.
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    event.stopPropagation();
    const checked = optOutKeywordsRequest.safeParse({ keywords: keywordsOf(text ?? '') });
    if (!checked.success) {
      setError(checked.error.issues[0]!.message);
      return;
    }
    setError(undefined);
    save.mutate({ keywords: keywordsOf(text ?? '') });
  };

  if (keywords.isError) return <p className="text-sm text-rose-600">{errorMessageOr(keywords.error, 'Error al cargar las palabras de baja.')}</p>;
  if (!keywords.data || text === null)
    return (
      <div className="flex justify-center py-3 text-emerald-600" aria-label="Cargando palabras de baja">
        <Spinner className="size-5" />
      </div>
    );
  return (
    <form className="space-y-3" onSubmit={onSubmit} noValidate aria-label="Baja de marketing">
      <ul className="flex flex-wrap gap-1.5" aria-label="Palabras de baja guardadas">
        {keywords.data.keywords.map((word) => (
          <li key={word} className="rounded-full bg-slate-200 px-2.5 py-0.5 font-mono text-xs text-slate-700">
            {word}
          </li>
        ))}
      </ul>
      <TextField
        label="Palabras de baja"
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          setError(undefined);
        }}
        error={error}
        placeholder="STOP, BAJA"
        hint="Separadas por comas; de 2 a 30 letras o números cada una, hasta 20."
      />
      <div className="flex justify-end">
        <Button type="submit" variant="secondary" aria-label="Guardar palabras de baja" loading={save.isPending}>
          Guardar
        </Button>
      </div>
    </form>
  );
}

/**
 * Baja de marketing (issue 43): the company's opt-out words. Folded by default, and read only once unfolded, so the
 * connection form and its actions (Guardar, Probar conexión) stay as they are.
 */
export function OptOutKeywordsSection() {
  const [open, setOpen] = useState(false);
  return (
    <details className="rounded-xl border border-slate-200 p-3" onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary className="cursor-pointer text-sm font-medium text-slate-700">Baja de marketing</summary>
      {open && (
        <div className="mt-3 space-y-3">
          <p className="text-xs text-slate-600">{OPT_OUT_EXPLANATION}</p>
          <OptOutKeywordsEditor />
        </div>
      )}
    </details>
  );
}
