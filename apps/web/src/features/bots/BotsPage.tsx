import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import type { BotSummary, BotType } from '@embudo/contracts/http/bots';
import { errorMessageOr } from '../../shared/api-client/api-error.ts';
import { Button } from '../../shared/ui/Button.tsx';
import { Spinner } from '../../shared/ui/Spinner.tsx';
import { useDialogs } from '../../shared/ui/use-dialogs.ts';
import { useToast } from '../../shared/ui/use-toast.ts';
import { BotAvatar } from './BotAvatar.tsx';
import { botsApi, botsKeys, botTypeLabels } from './bots.api.ts';
import { CreateBotDialog } from './CreateBotDialog.tsx';

function BotCard({ bot, slug, onDelete, deleting }: { bot: BotSummary; slug: string; onDelete: () => void; deleting: boolean }) {
  return (
    <article
      aria-label={bot.name}
      data-testid="bot-card"
      className="group relative flex flex-col rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 transition hover:shadow-md hover:ring-emerald-300"
    >
      <Link
        to={`/t/${slug}/bots/${bot.id}`}
        className="flex items-center gap-4 after:absolute after:inset-0 after:rounded-2xl"
        aria-label={`Abrir ${bot.name}`}
      >
        <BotAvatar type={bot.avatar_icon} />
        <div className="min-w-0">
          <h2 className="truncate text-base font-semibold text-slate-900">{bot.name}</h2>
          <p className="text-sm text-slate-500">{botTypeLabels[bot.type]}</p>
        </div>
      </Link>
      <p className="mt-4 text-xs text-slate-400">Actualizado {new Date(bot.updated_at).toLocaleDateString('es')}</p>
      <div className="relative z-10 mt-3 flex justify-end">
        <Button
          variant="ghost"
          size="sm"
          loading={deleting}
          onClick={onDelete}
          aria-label={`Eliminar ${bot.name}`}
          className="text-rose-600 hover:bg-rose-50 hover:text-rose-700"
        >
          Eliminar
        </Button>
      </div>
    </article>
  );
}

/** /t/{slug}/bots: the company's bots as cards, with a card to create one (spec 02 §2 Bots Studio); owners and admins only (the router). */
export function BotsPage() {
  const { tenantSlug = '' } = useParams();
  const navigate = useNavigate();
  const toast = useToast();
  const dialogs = useDialogs();
  const queryClient = useQueryClient();
  const [creating, setCreating] = useState(false);
  const bots = useQuery({ queryKey: botsKeys.all, queryFn: botsApi.list });

  const loadError = bots.error;
  useEffect(() => {
    if (loadError) toast.error(errorMessageOr(loadError, 'Fallo al cargar los bots.'));
  }, [loadError, toast]);

  const create = useMutation({
    mutationFn: (input: { name: string; type: BotType }) => botsApi.create(input),
    onSuccess: (bot) => {
      setCreating(false);
      toast.success('¡Bot creado exitosamente!');
      void queryClient.invalidateQueries({ queryKey: botsKeys.all });
      void navigate(`/t/${tenantSlug}/bots/${bot.id}`);
    },
    onError: (error) => toast.error(errorMessageOr(error, 'Fallo al crear el bot.')),
  });

  const remove = useMutation({
    mutationFn: (botId: string) => botsApi.remove(botId),
    onSuccess: (_answer, botId) => {
      queryClient.setQueryData<BotSummary[]>(botsKeys.all, (list) => list?.filter((bot) => bot.id !== botId));
      toast.success('Bot eliminado.');
    },
    onError: (error) => toast.error(errorMessageOr(error, 'Fallo al eliminar el bot.')),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: botsKeys.all }),
  });

  const askToDelete = async (bot: BotSummary) => {
    const confirmed = await dialogs.confirm({
      title: 'Eliminar bot',
      message: `¿Seguro que quieres eliminar el bot «${bot.name}»? Las columnas que lo usan dejarán de tenerlo.`,
      confirmText: 'Eliminar',
      destructive: true,
    });
    if (confirmed) remove.mutate(bot.id);
  };

  return (
    <section className="mx-auto max-w-7xl px-4 py-8 sm:px-6 lg:px-8">
      <h1 className="text-2xl font-bold tracking-tight text-slate-900">Bots Studio</h1>
      <p className="mt-1 text-sm text-slate-500">Crea bots de agendamiento y cobranza y diseña sus flujos con el editor visual.</p>

      {bots.isPending && (
        <div className="mt-10 flex justify-center text-emerald-600" role="status" aria-label="Cargando bots">
          <Spinner className="size-8" />
        </div>
      )}
      {bots.isError && (
        <div className="mt-6 rounded-2xl bg-rose-50 p-6 text-center ring-1 ring-rose-200">
          <p className="text-sm text-rose-700">Fallo al cargar los bots.</p>
          <Button variant="secondary" size="sm" className="mt-3" onClick={() => void bots.refetch()}>
            Reintentar
          </Button>
        </div>
      )}
      {bots.data && (
        <div className="mt-6 grid gap-5 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4">
          <button
            type="button"
            onClick={() => setCreating(true)}
            className="flex min-h-40 flex-col items-center justify-center gap-2 rounded-2xl border-2 border-dashed border-slate-300 bg-white/60 p-5 text-slate-500 transition hover:border-emerald-400 hover:text-emerald-700"
          >
            <span className="grid size-10 place-items-center rounded-full bg-slate-100 text-2xl leading-none" aria-hidden="true">
              +
            </span>
            <span className="text-sm font-semibold">Crear Nuevo Bot</span>
          </button>
          {bots.data.map((bot) => (
            <BotCard
              key={bot.id}
              bot={bot}
              slug={tenantSlug}
              deleting={remove.isPending && remove.variables === bot.id}
              onDelete={() => void askToDelete(bot)}
            />
          ))}
        </div>
      )}
      {creating && <CreateBotDialog creating={create.isPending} onCreate={(input) => create.mutate(input)} onClose={() => setCreating(false)} />}
    </section>
  );
}
