import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { Modal } from './Modal.tsx';
import { ToastProvider } from './ToastProvider.tsx';
import { useToast } from './use-toast.ts';

function TeamLikeDialog({ onClose }: { onClose: () => void }) {
  const toast = useToast();
  return (
    <Modal
      title="Administrar Equipo"
      onClose={onClose}
      footer={
        <button type="button" onClick={onClose}>
          Cerrar
        </button>
      }
    >
      <button type="button" onClick={() => toast.success('Usuario invitado exitosamente.')}>
        Invitar
      </button>
    </Modal>
  );
}

describe('Modal', () => {
  it("leaves the dialog's own Cerrar button the only one named so, even with a notification showing", () => {
    const onClose = vi.fn();
    render(
      <ToastProvider>
        <TeamLikeDialog onClose={onClose} />
      </ToastProvider>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Invitar' }));
    expect(screen.getByText('Usuario invitado exitosamente.')).toBeTruthy();
    // A label search matches substrings in browser tests (Playwright's getByRole name): only one may answer.
    expect(screen.getAllByRole('button', { name: /cerrar/i })).toHaveLength(1);

    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Cerrar' }));
    fireEvent.click(screen.getByRole('button', { name: 'Salir del diálogo' }));
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(onClose).toHaveBeenCalledTimes(3);
  });
});
