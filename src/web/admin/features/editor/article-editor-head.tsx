import { href } from '../../../../shared/paths.ts';
import { PublicPageLink } from './editor-parts.tsx';
import type { ArticleForm, Panel } from './use-article-form.ts';

const PANEL_LABELS: Record<Panel, string> = { edit: 'Edit', preview: 'Preview', revisions: 'Revisions' };

/** The article editor's heading: where the article is, its state, the panel switch and the public page. */
export function ArticleEditorHead({ editor }: { editor: ArticleForm }) {
  const { articleId, published, place, panel, setPanel, form } = editor;
  return (
    <header className="editor-head">
      <div>
        <h1 tabIndex={-1}>{articleId === null ? 'New article' : 'Edit article'}</h1>
        <p className="muted editor-place">
          {place.length > 0 ? `In ${place.map((node) => node.name).join(' › ')}` : ''}
          {' · '}
          <span className={published ? 'badge badge-published' : 'badge badge-draft'}>
            {published ? 'Published' : 'Draft'}
          </span>
          {form.dirty && <span className="badge badge-unsaved">Unsaved changes</span>}
        </p>
      </div>
      <div className="panel-switch" role="group" aria-label="View">
        {(['edit', 'preview', 'revisions'] as const).map((name) => (
          <button
            key={name}
            type="button"
            className="tool"
            aria-pressed={panel === name}
            disabled={name === 'revisions' && articleId === null}
            onClick={() => setPanel(name)}
          >
            {PANEL_LABELS[name]}
          </button>
        ))}
        {published && articleId !== null && <PublicPageLink href={href.instruction(articleId)} />}
      </div>
    </header>
  );
}
