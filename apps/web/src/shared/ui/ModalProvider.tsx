import { Suspense, useCallback, useMemo, useRef, useState, type ReactNode } from 'react';
import { ModalContext, type ModalApi, type ModalRender } from './modal-context.ts';

interface OpenModal {
  id: number;
  render: ModalRender;
  onDismiss?: () => void;
}

/** The modal manager: holds the one open modal and renders it above the page. */
export function ModalProvider({ children }: { children: ReactNode }) {
  const [current, setCurrent] = useState<OpenModal | null>(null);
  const currentRef = useRef<OpenModal | null>(null);
  const nextId = useRef(1);

  const replace = useCallback((next: OpenModal | null) => {
    const previous = currentRef.current;
    currentRef.current = next;
    setCurrent(next);
    previous?.onDismiss?.();
  }, []);

  const close = useCallback(() => replace(null), [replace]);

  const open = useCallback<ModalApi['open']>((render, options) => replace({ id: nextId.current++, render, onDismiss: options?.onDismiss }), [replace]);

  const api = useMemo<ModalApi>(() => ({ open, close, isOpen: current !== null }), [open, close, current]);

  // Each modal gets a close bound to itself, so a stale close cannot shut the modal that replaced it.
  const closeThis = useCallback(
    (id: number) => () => {
      if (currentRef.current?.id === id) replace(null);
    },
    [replace],
  );

  return (
    <ModalContext.Provider value={api}>
      {children}
      {/* A dialog whose code loads on demand (lazyNamed) shows once it has arrived: nothing stands in for it meanwhile. */}
      {current && (
        <div key={current.id}>
          <Suspense fallback={null}>{current.render(closeThis(current.id))}</Suspense>
        </div>
      )}
    </ModalContext.Provider>
  );
}
