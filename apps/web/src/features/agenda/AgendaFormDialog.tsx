import { useId, type ReactNode } from 'react';
import { Button } from '../../shared/ui/Button.tsx';
import { FormAlert } from '../../shared/ui/FormAlert.tsx';
import { Modal, type ModalProps } from '../../shared/ui/Modal.tsx';
import type { useDialogSave } from './use-dialog-save.ts';

interface AgendaFormDialogProps {
  title: string;
  description?: string;
  size?: ModalProps['size'];
  form: ReturnType<typeof useDialogSave>;
  onClose: () => void;
  /** Shown for an existing item the user may delete. */
  onDelete?: () => void;
  /** A viewer only reads: the fields are disabled and one button closes the dialog. */
  readOnly?: boolean;
  /** Two columns of fields, or one field under another. */
  layout?: 'grid' | 'stack';
  children: ReactNode;
}

/** The frame of every agenda dialog: the form's own problem on top, Eliminar, Cancelar and Guardar below. */
export function AgendaFormDialog({ title, description, size, form, onClose, onDelete, readOnly = false, layout = 'stack', children }: AgendaFormDialogProps) {
  const formId = useId();
  const footer = readOnly ? (
    <Button variant="secondary" onClick={onClose}>
      Cerrar
    </Button>
  ) : (
    <>
      {onDelete && (
        <Button variant="danger" className="mr-auto" onClick={onDelete} disabled={form.saving}>
          Eliminar
        </Button>
      )}
      <Button variant="secondary" onClick={onClose}>
        Cancelar
      </Button>
      <Button type="submit" form={formId} loading={form.saving}>
        Guardar
      </Button>
    </>
  );
  return (
    <Modal title={title} description={description} size={size} onClose={onClose} footer={footer}>
      <form id={formId} noValidate onSubmit={form.onSubmit}>
        <fieldset disabled={readOnly} className={layout === 'grid' ? 'grid gap-4 sm:grid-cols-2' : 'space-y-4'}>
          {form.problem && (
            <div className="sm:col-span-2">
              <FormAlert message={form.problem} />
            </div>
          )}
          {children}
        </fieldset>
      </form>
    </Modal>
  );
}
