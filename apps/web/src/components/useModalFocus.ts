import { useEffect, useRef, type RefObject } from 'react';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), textarea:not([disabled]), select:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** Open modals, innermost last: only the top one answers keys (a confirmation opened over the composer). */
const openModals: HTMLElement[] = [];

/**
 * Focus for a modal panel: moves in on open (the [data-autofocus] element, else the first field, else the
 * first control), Tab stays inside, Escape closes, and focus returns to what opened it.
 */
export function useModalFocus(panel: RefObject<HTMLElement | null>, onClose: () => void): void {
  const closeRef = useRef(onClose);
  useEffect(() => {
    closeRef.current = onClose;
  }, [onClose]);

  useEffect(() => {
    const root = panel.current;
    if (!root) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    openModals.push(root);
    const focusables = () => Array.from(root.querySelectorAll<HTMLElement>(FOCUSABLE));
    // data-autofocus wins over fields before it (the composer's mood radios come before its text).
    const field =
      root.querySelector<HTMLElement>('[data-autofocus]') ??
      root.querySelector<HTMLElement>('input:not([disabled]), textarea:not([disabled])');
    (field ?? focusables()[0] ?? root).focus();

    const onKey = (event: KeyboardEvent) => {
      if (openModals.at(-1) !== root) return;
      if (event.key === 'Escape') {
        event.stopPropagation();
        closeRef.current();
        return;
      }
      if (event.key !== 'Tab') return;
      const items = focusables();
      const first = items[0];
      const last = items[items.length - 1];
      if (!first || !last) return;
      if (event.shiftKey && document.activeElement === first) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && document.activeElement === last) {
        event.preventDefault();
        first.focus();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      openModals.splice(openModals.indexOf(root), 1);
      if (opener?.isConnected) opener.focus();
    };
  }, [panel]);
}
