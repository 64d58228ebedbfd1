import { Button } from '../../shared/ui/Button.tsx';

interface AgendaDialogFooterProps {
  formId: string;
  saving: boolean;
  onCancel: () => void;
  /** Shown for an existing item the user may delete. */
  onDelete?: () => void;
  /** A viewer only reads: one button closes the dialog. */
  readOnly?: boolean;
}

/** The buttons under every agenda dialog: Eliminar on the left, Cancelar and Guardar on the right. */
export function AgendaDialogFooter({ formId, saving, onCancel, onDelete, readOnly = false }: AgendaDialogFooterProps) {
  if (readOnly) {
    return (
      <Button variant="secondary" onClick={onCancel}>
        Cerrar
      </Button>
    );
  }
  return (
    <>
      {onDelete && (
        <Button variant="danger" className="mr-auto" onClick={onDelete} disabled={saving}>
          Eliminar
        </Button>
      )}
      <Button variant="secondary" onClick={onCancel}>
        Cancelar
      </Button>
      <Button type="submit" form={formId} loading={saving}>
        Guardar
      </Button>
    </>
  );
}
