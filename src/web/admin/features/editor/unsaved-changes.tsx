import { useEffect, type RefObject } from 'react';
import { useBlocker } from 'react-router';
import { Modal } from '../../components/modal.tsx';

/**
 * Unsaved work is not lost by leaving: the browser asks before a reload or a closed tab, and the app asks before a
 * move inside it. Either way the local draft stays in this browser for when the article or category opens again.
 */
export function UnsavedChangesGuard({
  dirty,
  dirtyRef,
  what = 'article',
}: {
  dirty: boolean;
  dirtyRef: RefObject<boolean>;
  what?: 'article' | 'category';
}) {
  // The ref is read at navigation time: a save that has just finished must not be blocked by a stale render.

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
      <p>
        This {what} has changes that are not saved. They stay in this browser as a local draft, offered again
        when you open the {what}.
      </p>
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
