import { Button } from '../../shared/ui/Button.tsx';
import { CopyButton } from '../../shared/ui/CopyButton.tsx';
import { Modal } from '../../shared/ui/Modal.tsx';
import type { AdminTenantUser } from './admin.api.ts';

/** Shows a reset's temporary password once: it is not stored anywhere the operator can see it again. */
export function TempPasswordModal({ user, tempPassword, onClose }: { user: AdminTenantUser; tempPassword: string; onClose: () => void }) {
  return (
    <Modal
      title="Contraseña temporal"
      description={`${user.name} (${user.email})`}
      onClose={onClose}
      size="sm"
      footer={
        <Button onClick={onClose} data-autofocus>
          Entendido
        </Button>
      }
    >
      <p className="text-sm text-slate-600">Comparte esta contraseña con el usuario. Solo se muestra una vez; deberá cambiarla al iniciar sesión.</p>
      <div className="mt-4 flex items-center gap-2">
        <code
          data-testid="temp-password"
          className="flex-1 rounded-lg bg-slate-100 px-3 py-2.5 font-mono text-base font-semibold tracking-wide text-slate-900 select-all"
        >
          {tempPassword}
        </code>
        <CopyButton text={tempPassword} />
      </div>
    </Modal>
  );
}
