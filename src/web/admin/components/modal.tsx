import { useId, useLayoutEffect, useRef, type ReactNode } from 'react';

/**
 * A modal dialog on the browser's own <dialog>: showModal() makes the page behind inert, traps focus and closes on
 * Escape, and the browser returns focus to where it was when it closes.
 */
export function Modal({
  title,
  onClose,
  children,
  wide = false,
}: {
  title: string;
  onClose: () => void;
  children: ReactNode;
  wide?: boolean;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  // Layout effect: close() must run before React removes the element, so the browser can give focus back.
  useLayoutEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);
  return (
    <dialog
      ref={ref}
      className={wide ? 'modal modal-wide' : 'modal'}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <h2 id={titleId} className="modal-title">
        {title}
      </h2>
      {children}
    </dialog>
  );
}

/** A dialog's buttons: its own action first (given as children), then Cancel. */
export function ModalActions({ children, onCancel }: { children: ReactNode; onCancel: () => void }) {
  return (
    <div className="modal-actions">
      {children}
      <button type="button" className="button button-secondary" onClick={onCancel}>
        Cancel
      </button>
    </div>
  );
}
