import { useId, useLayoutEffect, useRef, type ReactNode, type SyntheticEvent } from 'react';
import { createPortal } from 'react-dom';

/** React passes events up its own tree, portal or not: a dialog's submit or reset must not reach a form around it. */
const keepInside = (event: SyntheticEvent) => event.stopPropagation();

/**
 * A modal dialog on the browser's own <dialog>: showModal() makes the page behind inert, traps focus and closes on
 * Escape, and the browser returns focus to where it was when it closes.
 *
 * It is drawn at the end of <body>, not where it is opened, so its own form is never inside another. Opened from
 * inside a form (the Link dialog of the request page's reply editor), a nested form's submit event stopped at the
 * outer form, before React could handle it: nothing prevented the browser's own submission, which reloaded the page
 * and lost the reply being written.
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
  return createPortal(
    <dialog
      ref={ref}
      className={wide ? 'modal modal-wide' : 'modal'}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onSubmit={keepInside}
      onReset={keepInside}
    >
      <h2 id={titleId} className="modal-title">
        {title}
      </h2>
      {children}
    </dialog>,
    document.body,
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
