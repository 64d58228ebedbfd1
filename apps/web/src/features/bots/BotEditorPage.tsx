import { Link, useParams } from 'react-router';
import { PagePlaceholder } from '../../shared/ui/PagePlaceholder.tsx';

export function BotEditorPage() {
  const { tenantSlug } = useParams();
  return (
    <PagePlaceholder
      title="Bots Studio"
      description="El editor de flujos estará disponible próximamente."
      actions={
        <Link to={`/t/${tenantSlug}/bots`} className="text-sm font-medium text-emerald-700 hover:text-emerald-800">
          ← Volver a Bots Studio
        </Link>
      }
    />
  );
}
