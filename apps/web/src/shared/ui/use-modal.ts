import { useContext } from 'react';
import { ModalContext, type ModalApi } from './modal-context.ts';

export function useModal(): ModalApi {
  const modal = useContext(ModalContext);
  if (!modal) throw new Error('useModal must be used inside <ModalProvider>');
  return modal;
}
