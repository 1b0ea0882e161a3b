'use client';

import { useEffect, useId, useRef } from 'react';

export interface DialogProps {
  open: boolean;
  title: string;
  description?: React.ReactNode;
  /** Called on Escape, on a click outside the panel, and by the dialog's own cancel buttons. */
  onClose: () => void;
  children: React.ReactNode;
  /** 'alertdialog' for confirmations of destructive actions. */
  role?: 'dialog' | 'alertdialog';
}

/**
 * A modal built on the native <dialog>: the browser traps focus inside, closes on Escape and gives
 * focus back to the button that opened it. The element marked `data-autofocus` gets focus first.
 */
export function Dialog({ open, title, description, onClose, children, role = 'dialog' }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descriptionId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      dialog.showModal();
      dialog.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    }
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <dialog
      ref={ref}
      className="dialog"
      role={role}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      // Escape fires `cancel`; the parent decides (state stays the single source of truth).
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      onClick={(e) => {
        if (e.target === e.currentTarget) onClose(); // a click on the backdrop
      }}
    >
      {open && (
        <div className="dialog-panel">
          <h2 id={titleId} className="dialog-title">
            {title}
          </h2>
          {description && (
            <div id={descriptionId} className="dialog-description">
              {description}
            </div>
          )}
          {children}
        </div>
      )}
    </dialog>
  );
}
