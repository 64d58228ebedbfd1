import { PagePlaceholder } from '../../shared/ui/PagePlaceholder.tsx';

export function BotsPage() {
  return <PagePlaceholder title="Bots Studio" description="Aquí crearás bots de agendamiento y cobranza con un editor visual." />;
}
