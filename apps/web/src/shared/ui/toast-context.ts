import { createContext } from 'react';

export type ToastType = 'success' | 'error' | 'info';

export interface ToastApi {
  show(type: ToastType, message: string): void;
  success(message: string): void;
  error(message: string): void;
  info(message: string): void;
}

export const ToastContext = createContext<ToastApi | null>(null);
