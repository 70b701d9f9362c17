import { useId } from 'react';

/** Said when a save was refused because someone else saved the article since this work started. */
export function ConflictBanner({ onReload, onOverwrite }: { onReload: () => void; onOverwrite: () => void }) {
  const ids = useId();
  return (
    <section className="banner banner-warning" role="alert" aria-labelledby={`${ids}-conflict`}>
      <h2 id={`${ids}-conflict`} className="banner-title">
        Someone else saved this article
      </h2>
      <p>
        It changed on the server since you started editing, so your save was refused. Reload it to see the
        other changes (yours are discarded), or save yours over them.
      </p>
      <div className="banner-actions">
        <button type="button" className="button" onClick={onReload}>
          Reload the article
        </button>
        <button type="button" className="button button-secondary" onClick={onOverwrite}>
          Save mine over it
        </button>
      </div>
    </section>
  );
}
