import { useEffect, useId, useRef, useState } from 'react';

/** The author's card menu (only Delete): a menu button, Escape and outside clicks close it. */
export function CardMenu({ onDelete }: { onDelete(): void }) {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    root.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
    const onPointer = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      button.current?.focus();
    };
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  return (
    <div className="cf-menu" ref={root} data-share-hidden="true">
      <button
        ref={button}
        type="button"
        className="icon-button"
        aria-label="More options"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen((value) => !value)}
      >
        <span aria-hidden="true">⋯</span>
      </button>
      {open ? (
        <div className="cf-menu__list" role="menu" id={menuId}>
          <button
            type="button"
            role="menuitem"
            className="cf-menu__item"
            onClick={() => {
              // The menu item is about to go: the confirmation returns focus to the ⋯ button instead.
              button.current?.focus();
              setOpen(false);
              onDelete();
            }}
          >
            Delete
          </button>
        </div>
      ) : null}
    </div>
  );
}
