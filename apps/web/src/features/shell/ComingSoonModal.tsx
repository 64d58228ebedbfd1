import { Button } from '../../shared/ui/Button.tsx';
import { Modal } from '../../shared/ui/Modal.tsx';

/** Stands in for dialogs that later issues build (team, bot settings, provider connection). */
export function ComingSoonModal({ title, onClose }: { title: string; onClose: () => void }) {
  return (
    <Modal
      title={title}
      onClose={onClose}
      size="sm"
      footer={
        <Button onClick={onClose} data-autofocus>
          Entendido
        </Button>
      }
    >
      <p className="text-sm text-slate-600">Esta función estará disponible próximamente.</p>
    </Modal>
  );
}
