import { useEffect, useRef, type KeyboardEvent, type ReactNode } from 'react';

const ITEMS = 'button:not([disabled]), select:not([disabled])';

/**
 * The ARIA toolbar pattern: one tab stop, arrows between the controls. The control last used keeps the tab stop,
 * so Tab leaves the toolbar and Shift+Tab comes back to the same place.
 */
export function Toolbar({
  label,
  children,
  className,
}: {
  label: string;
  children: ReactNode;
  className?: string;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const active = useRef<HTMLElement | null>(null);
  useEffect(() => {
    const items = [...(ref.current?.querySelectorAll<HTMLElement>(ITEMS) ?? [])];
    const stop = active.current && items.includes(active.current) ? active.current : items[0];
    for (const item of items) item.tabIndex = item === stop ? 0 : -1;
  });
  const handleKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const items = [...(ref.current?.querySelectorAll<HTMLElement>(ITEMS) ?? [])];
    const index = items.indexOf(event.target as HTMLElement);
    if (index < 0) return;
    const next = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: items.length - 1 }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    const target = items[(next + items.length) % items.length];
    target?.focus();
  };
  return (
    <div
      ref={ref}
      role="toolbar"
      aria-label={label}
      className={className}
      onKeyDown={handleKeyDown}
      onFocus={(event) => {
        active.current = event.target as HTMLElement;
        for (const item of ref.current?.querySelectorAll<HTMLElement>(ITEMS) ?? [])
          item.tabIndex = item === event.target ? 0 : -1;
      }}
    >
      {children}
    </div>
  );
}
