import { createContext, type ReactNode } from 'react';

export type ModalRender = (close: () => void) => ReactNode;

export interface ModalApi {
  /**
   * Shows a modal, replacing the one already open: only one modal is open at a time (spec 01 §2).
   * `onDismiss` runs when this modal goes away, whether closed or replaced.
   */
  open(render: ModalRender, options?: { onDismiss?: () => void }): void;
  close(): void;
  isOpen: boolean;
}

export const ModalContext = createContext<ModalApi | null>(null);
