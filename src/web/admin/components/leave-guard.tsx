import { useEffect, type ReactNode, type RefObject } from 'react';
import { useBlocker } from 'react-router';
import { Modal } from './modal.tsx';

/**
 * Unsaved work is not lost by leaving: the browser asks before a reload or a closed tab, and the app asks, in the
 * words given as children, before a move to another page.
 */
export function LeaveGuard({
  dirty,
  dirtyRef,
  children,
}: {
  dirty: boolean;
  /** Read at navigation time: a save that has just finished must not be blocked by a stale render. */
  dirtyRef: RefObject<boolean>;
  children: ReactNode;
}) {
  useEffect(() => {
    if (!dirty) return;
    const handleBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers need a value; none of them shows it any more.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', handleBeforeUnload);
    return () => window.removeEventListener('beforeunload', handleBeforeUnload);
  }, [dirty]);

  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      dirtyRef.current && currentLocation.pathname !== nextLocation.pathname,
  );

  if (blocker.state !== 'blocked') return null;
  return (
    <Modal title="Leave without saving?" onClose={() => blocker.reset()}>
      {children}
      <div className="modal-actions">
        <button type="button" className="button" onClick={() => blocker.reset()}>
          Stay and keep editing
        </button>
        <button type="button" className="button button-secondary" onClick={() => blocker.proceed()}>
          Leave
        </button>
      </div>
    </Modal>
  );
}
