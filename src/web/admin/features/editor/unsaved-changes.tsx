import type { RefObject } from 'react';
import { LeaveGuard } from '../../components/leave-guard.tsx';

/**
 * Unsaved work is not lost by leaving: the local draft stays in this browser for when the article or category opens
 * again, and the app says so before a move.
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
  return (
    <LeaveGuard dirty={dirty} dirtyRef={dirtyRef}>
      <p>
        This {what} has changes that are not saved. They stay in this browser as a local draft, offered again
        when you open the {what}.
      </p>
    </LeaveGuard>
  );
}
