import { useEffect, type RefObject } from 'react';

/** While `active`, a mouse press outside `ref`'s element calls `onOutside` (closes a menu). */
export function useOutsideClick(ref: RefObject<HTMLElement | null>, active: boolean, onOutside: () => void) {
  useEffect(() => {
    if (!active) return;
    const listener = (event: MouseEvent) => {
      if (!ref.current?.contains(event.target as Node)) onOutside();
    };
    document.addEventListener('mousedown', listener);
    return () => document.removeEventListener('mousedown', listener);
  }, [ref, active, onOutside]);
}
