import { Banner } from '../../components/banner.tsx';

/** Said when a save was refused because someone else saved the article since this work started. */
export function ConflictBanner({ onReload, onOverwrite }: { onReload: () => void; onOverwrite: () => void }) {
  return (
    <Banner
      tone="warning"
      alert
      title="Someone else saved this article"
      action={{ label: 'Reload the article', onClick: onReload }}
      alternative={{ label: 'Save mine over it', onClick: onOverwrite }}
    >
      <p>
        It changed on the server since you started editing, so your save was refused. Reload it to see the
        other changes (yours are discarded), or save yours over them.
      </p>
    </Banner>
  );
}
