import { PagePlaceholder } from '../../shared/ui/PagePlaceholder.tsx';

export function BatchesPage() {
  return <PagePlaceholder title="Dashboard de Envíos Masivos" description="Aquí seguirás cada envío masivo iniciado desde el botón Envío Masivo del funnel." />;
}
