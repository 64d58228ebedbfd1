import { PagePlaceholder } from '../../shared/ui/PagePlaceholder.tsx';

export function AgendaPage() {
  return <PagePlaceholder title="Agenda" description="Aquí gestionarás citas, profesionales y servicios." />;
}
