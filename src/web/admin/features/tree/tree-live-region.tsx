/** Read by screen readers when it changes: where an item went, what was created, renamed or deleted. */
export function TreeLiveRegion({ announcement }: { announcement: string }) {
  return (
    <p className="visually-hidden" role="status" aria-live="polite">
      {announcement}
    </p>
  );
}
