import { useEffect, useRef, type DependencyList } from 'react';
import { Banner } from '../../components/banner.tsx';
import { formatTime } from '../../lib/format-time.ts';

const LOCAL_DRAFT_DELAY_MS = 400;

/**
 * The local draft follows the work: `write` runs a moment after each change of `deps`, and at once when the page
 * goes away. While `paused` (a stored draft not yet restored or discarded) the stored draft stays as it is. Answers
 * the pending write, which a save or a delete cancels by setting it to null.
 */
export function useLocalDraftWriter(write: () => void, deps: DependencyList, paused: boolean) {
  const pending = useRef<(() => void) | null>(null);
  useEffect(() => {
    if (paused) return;
    const run = () => {
      pending.current = null;
      write();
    };
    pending.current = run;
    const timer = window.setTimeout(run, LOCAL_DRAFT_DELAY_MS);
    return () => window.clearTimeout(timer);
    // `write` is new on every render; `deps` say when the work changed.
  }, [...deps, paused]);
  useEffect(() => {
    const flush = () => pending.current?.();
    window.addEventListener('pagehide', flush);
    return () => {
      window.removeEventListener('pagehide', flush);
      flush();
    };
  }, []);
  return pending;
}

/** Offers back the work this browser kept for what is being edited. */
export function LocalDraftOffer({
  what,
  savedAt,
  note = '',
  onRestore,
  onDiscard,
}: {
  what: 'article' | 'category';
  savedAt: string;
  note?: string;
  onRestore: () => void;
  onDiscard: () => void;
}) {
  return (
    <Banner
      tone="info"
      title={`Unsaved changes from ${formatTime(savedAt)}`}
      action={{ label: 'Restore my changes', onClick: onRestore }}
      alternative={{ label: 'Discard them', onClick: onDiscard }}
    >
      <p>
        This browser kept changes to this {what} that were never saved{note}.
      </p>
    </Banner>
  );
}
