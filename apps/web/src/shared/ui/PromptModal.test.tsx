import { act, fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ModalProvider } from './ModalProvider.tsx';
import { useDialogs, type DialogsApi } from './use-dialogs.ts';
import { useModal } from './use-modal.ts';
import type { ModalApi } from './modal-context.ts';

function setup() {
  const handles: { dialogs?: DialogsApi; modal?: ModalApi } = {};
  function Probe() {
    handles.dialogs = useDialogs();
    handles.modal = useModal();
    return null;
  }
  render(
    <ModalProvider>
      <Probe />
    </ModalProvider>,
  );
  const dialogs = () => handles.dialogs!;
  const modal = () => handles.modal!;
  return { dialogs, modal };
}

function openPrompt(dialogs: () => DialogsApi, options: Parameters<DialogsApi['prompt']>[0]) {
  let answer!: Promise<string | null>;
  act(() => {
    answer = dialogs().prompt(options);
  });
  return answer;
}

describe('prompt modal', () => {
  it('shows title, message and a labelled input', () => {
    const { dialogs } = setup();
    void openPrompt(dialogs, { title: 'Renombrar', message: 'Nuevo nombre del funnel', label: 'Nombre' });
    expect(screen.getByRole('dialog', { name: 'Renombrar' })).toBeTruthy();
    expect(screen.getByText('Nuevo nombre del funnel')).toBeTruthy();
    expect(screen.getByLabelText('Nombre')).toBeTruthy();
  });

  it('keeps confirm disabled while the input is blank', () => {
    const { dialogs } = setup();
    void openPrompt(dialogs, { title: 'Renombrar', label: 'Nombre' });
    const confirm = screen.getByRole('button', { name: 'Aceptar' }) as HTMLButtonElement;
    expect(confirm.disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('Nombre'), { target: { value: '   ' } });
    expect(confirm.disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('Nombre'), { target: { value: 'Ventas' } });
    expect(confirm.disabled).toBe(false);
  });

  it('confirms with Enter and resolves with the value', async () => {
    const { dialogs } = setup();
    const answer = openPrompt(dialogs, { title: 'Renombrar', label: 'Nombre' });
    const input = screen.getByLabelText('Nombre');
    fireEvent.change(input, { target: { value: 'Ventas' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    await expect(answer).resolves.toBe('Ventas');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('does not confirm a blank value with Enter', () => {
    const { dialogs } = setup();
    void openPrompt(dialogs, { title: 'Renombrar', label: 'Nombre' });
    fireEvent.keyDown(screen.getByLabelText('Nombre'), { key: 'Enter' });
    expect(screen.getByRole('dialog')).toBeTruthy();
  });

  it('cancels with Escape and resolves with null', async () => {
    const { dialogs } = setup();
    const answer = openPrompt(dialogs, { title: 'Renombrar', label: 'Nombre' });
    fireEvent.change(screen.getByLabelText('Nombre'), { target: { value: 'Ventas' } });
    fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Escape' });
    await expect(answer).resolves.toBeNull();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('shows the validator message inline and stays open until the value passes', async () => {
    const { dialogs } = setup();
    const answer = openPrompt(dialogs, {
      title: 'Nuevo funnel',
      label: 'Nombre',
      validate: (value) => (value.length < 3 ? 'Mínimo 3 caracteres' : null),
    });
    const input = screen.getByLabelText('Nombre');
    fireEvent.change(input, { target: { value: 'ab' } });
    fireEvent.click(screen.getByRole('button', { name: 'Aceptar' }));
    expect(screen.getByText('Mínimo 3 caracteres')).toBeTruthy();
    expect(screen.getByRole('dialog')).toBeTruthy();

    fireEvent.change(input, { target: { value: 'abc' } });
    expect(screen.queryByText('Mínimo 3 caracteres')).toBeNull();
    fireEvent.keyDown(input, { key: 'Enter' });
    await expect(answer).resolves.toBe('abc');
  });

  it('starts from the default value', () => {
    const { dialogs } = setup();
    void openPrompt(dialogs, { title: 'Renombrar', label: 'Nombre', defaultValue: 'Sales Funnel' });
    expect((screen.getByLabelText('Nombre') as HTMLInputElement).value).toBe('Sales Funnel');
  });
});

describe('confirm modal', () => {
  it('resolves true on confirm and false on cancel', async () => {
    const { dialogs } = setup();
    let yes!: Promise<boolean>;
    act(() => {
      yes = dialogs().confirm({ title: '¿Borrar columna?', message: 'No se puede deshacer.', confirmText: 'Borrar' });
    });
    fireEvent.click(screen.getByRole('button', { name: 'Borrar' }));
    await expect(yes).resolves.toBe(true);

    let no!: Promise<boolean>;
    act(() => {
      no = dialogs().confirm({ title: '¿Borrar columna?' });
    });
    fireEvent.click(screen.getByRole('button', { name: 'Cancelar' }));
    await expect(no).resolves.toBe(false);
  });

  it('confirms with Enter from the dialog body', async () => {
    const { dialogs } = setup();
    let yes!: Promise<boolean>;
    act(() => {
      yes = dialogs().confirm({ title: '¿Continuar?', message: 'Se enviará el mensaje.' });
    });
    fireEvent.keyDown(screen.getByText('Se enviará el mensaje.'), { key: 'Enter' });
    await expect(yes).resolves.toBe(true);
  });
});

describe('modal manager', () => {
  it('keeps only one modal open: opening another replaces it and cancels the first prompt', async () => {
    const { dialogs, modal } = setup();
    const first = openPrompt(dialogs, { title: 'Primero', label: 'Nombre' });
    act(() => {
      modal().open(() => <div role="dialog" aria-label="Segundo" />);
    });
    await expect(first).resolves.toBeNull();
    expect(screen.getAllByRole('dialog')).toHaveLength(1);
    expect(screen.getByRole('dialog', { name: 'Segundo' })).toBeTruthy();
  });

  it('ignores a stale close from a modal that was already replaced', () => {
    const { modal } = setup();
    let closeFirst!: () => void;
    act(() => {
      modal().open((close) => {
        closeFirst = close;
        return <p>primero</p>;
      });
    });
    act(() => {
      modal().open(() => <p>segundo</p>);
    });
    act(() => closeFirst());
    expect(screen.getByText('segundo')).toBeTruthy();
    act(() => modal().close());
    expect(screen.queryByText('segundo')).toBeNull();
  });
});
