import { PagePlaceholder } from '../../shared/ui/PagePlaceholder.tsx';

/** The sales-funnel board; its columns and cards arrive with the board issue. */
export function BoardPage() {
  return <PagePlaceholder title="Sales Funnel" description="Aquí verás tus conversaciones organizadas en columnas del embudo de ventas." />;
}
