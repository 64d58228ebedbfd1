import { Link, useParams } from 'react-router';
import { PagePlaceholder } from '../../shared/ui/PagePlaceholder.tsx';

export function TemplatesPage() {
  const { tenantSlug } = useParams();
  return (
    <PagePlaceholder
      title="Plantillas de Mensajes"
      description="Aquí crearás y sincronizarás tus plantillas de WhatsApp."
      actions={
        <Link
          to={`/t/${tenantSlug}/templates/new`}
          className="inline-flex h-10 items-center rounded-lg bg-emerald-600 px-4 text-sm font-semibold text-white shadow-sm hover:bg-emerald-700"
        >
          Crear Nueva Plantilla
        </Link>
      }
    />
  );
}
