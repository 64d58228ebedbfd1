import { createElement, useMemo } from 'react';
import { PromptModal, type ConfirmOptions, type PromptOptions } from './PromptModal.tsx';
import { useModal } from './use-modal.ts';

export interface DialogsApi {
  /** Resolves with the entered text, or null when cancelled or replaced by another modal. */
  prompt(options: PromptOptions): Promise<string | null>;
  /** Resolves true when confirmed, false when cancelled or replaced by another modal. */
  confirm(options: ConfirmOptions): Promise<boolean>;
}

export function useDialogs(): DialogsApi {
  const modal = useModal();
  return useMemo<DialogsApi>(() => {
    const ask = (options: PromptOptions, withInput: boolean) =>
      new Promise<string | null>((resolve) => {
        let settled = false;
        const settle = (value: string | null) => {
          if (settled) return;
          settled = true;
          resolve(value);
        };
        modal.open(
          (close) =>
            createElement(PromptModal, {
              ...options,
              withInput,
              onConfirm: (value: string) => {
                settle(value);
                close();
              },
              onCancel: () => {
                settle(null);
                close();
              },
            }),
          { onDismiss: () => settle(null) },
        );
      });
    return {
      prompt: (options) => ask(options, true),
      confirm: async (options) => (await ask(options, false)) !== null,
    };
  }, [modal]);
}
