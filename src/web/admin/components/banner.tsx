import { useId, type ReactNode } from 'react';

/**
 * A titled banner over the work with a choice of two: `action` is the main button, `alternative` the secondary one.
 * An `alert` is read out as it appears.
 */
export function Banner({
  tone,
  title,
  alert = false,
  action,
  alternative,
  children,
}: {
  tone: 'info' | 'warning';
  title: ReactNode;
  alert?: boolean;
  action: { label: string; onClick: () => void };
  alternative: { label: string; onClick: () => void };
  children: ReactNode;
}) {
  const id = useId();
  return (
    <section className={`banner banner-${tone}`} role={alert ? 'alert' : undefined} aria-labelledby={id}>
      <h2 id={id} className="banner-title">
        {title}
      </h2>
      {children}
      <div className="banner-actions">
        <button type="button" className="button" onClick={action.onClick}>
          {action.label}
        </button>
        <button type="button" className="button button-secondary" onClick={alternative.onClick}>
          {alternative.label}
        </button>
      </div>
    </section>
  );
}
