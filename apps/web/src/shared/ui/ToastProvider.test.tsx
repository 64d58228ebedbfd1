import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ToastApi } from './toast-context.ts';
import { TOAST_DURATION_MS, ToastProvider } from './ToastProvider.tsx';
import { useToast } from './use-toast.ts';

function setup() {
  let toast!: ToastApi;
  function Probe() {
    toast = useToast();
    return null;
  }
  render(
    <ToastProvider>
      <Probe />
    </ToastProvider>,
  );
  return () => toast;
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('toasts', () => {
  it('announce errors as alerts and the rest as status', () => {
    const toast = setup();
    act(() => {
      toast().success('Nombre actualizado exitosamente.');
      toast().error('Error al actualizar el nombre.');
      toast().info('No hay citas para exportar en el rango actual.');
    });
    expect(screen.getByRole('alert').textContent).toContain('Error al actualizar el nombre.');
    expect(screen.getAllByRole('status').map((node) => node.getAttribute('data-type'))).toEqual(['success', 'info']);
  });

  it('close by themselves after 5 seconds', () => {
    const toast = setup();
    act(() => toast().success('Guardado'));
    act(() => {
      vi.advanceTimersByTime(TOAST_DURATION_MS - 1);
    });
    expect(screen.queryByText('Guardado')).not.toBeNull();
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(screen.queryByText('Guardado')).toBeNull();
    expect(TOAST_DURATION_MS).toBe(5000);
  });

  it('can be closed by hand', () => {
    const toast = setup();
    act(() => toast().info('Hola'));
    fireEvent.click(screen.getByRole('button', { name: 'Descartar notificación' }));
    expect(screen.queryByText('Hola')).toBeNull();
  });
});
