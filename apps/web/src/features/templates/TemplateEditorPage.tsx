import { useParams } from 'react-router';
import { PagePlaceholder } from '../../shared/ui/PagePlaceholder.tsx';

/** templates/new and templates/{templateId}. */
export function TemplateEditorPage() {
  const { templateId } = useParams();
  return <PagePlaceholder title={templateId ? 'Editar Plantilla' : 'Nueva Plantilla'} description="El editor de plantillas estará disponible próximamente." />;
}
