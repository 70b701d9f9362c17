import { useEffect, useId, useState } from 'react';
import { Outlet, useLoaderData, useLocation } from 'react-router';
import type { AdminTree } from '../../../shared/api/admin.ts';
import { adminCall } from '../api/admin-api.ts';
import { usePageTitle } from '../lib/use-page-title.ts';
import { ContentTree } from '../features/tree/content-tree.tsx';
import { ContentTreeProvider, useContentTree } from '../lib/content-tree-context.tsx';

export const contentLoader = async (): Promise<AdminTree> => adminCall('getAdminTree');

/**
 * The tree on the left, the article being edited (or an overview) on the right. On a phone they stand one above the
 * other, so while an item is open the tree folds to its heading and a Show button, and the editor is at the top.
 */
export function ContentLayout() {
  const tree = useLoaderData() as AdminTree;
  const { pathname } = useLocation();
  const editing = pathname !== '/';
  const [treeShown, setTreeShown] = useState(false);
  const paneId = useId();
  useEffect(() => setTreeShown(false), [pathname]);
  // The tree scrolls within its pane: the item open, as from a link to it, is brought into the pane's view.
  useEffect(() => {
    document
      .getElementById(paneId)
      ?.querySelector('[aria-current="page"] > .tree-row')
      ?.scrollIntoView({ block: 'nearest' });
  }, [paneId, pathname]);
  return (
    <ContentTreeProvider initial={tree}>
      <div className="content-layout">
        <section
          id={paneId}
          className="tree-pane"
          aria-labelledby="tree-heading"
          data-folded={editing && !treeShown}
        >
          <div className="pane-head">
            <h2 id="tree-heading" className="pane-title">
              Sections, categories and articles
            </h2>
            {editing && (
              <button
                type="button"
                className="tool pane-toggle"
                aria-expanded={treeShown}
                aria-controls={paneId}
                onClick={() => setTreeShown((shown) => !shown)}
              >
                {treeShown ? 'Hide' : 'Show'}
              </button>
            )}
          </div>
          <ContentTree />
        </section>
        <div className="content-detail">
          <Outlet />
        </div>
      </div>
    </ContentTreeProvider>
  );
}

export function ContentHome() {
  usePageTitle('Content');
  const { tree } = useContentTree();
  const drafts = tree.articles.filter((article) => !article.published).length;
  return (
    <div className="content-home">
      <h1 tabIndex={-1}>Content</h1>
      <p>
        {tree.sections.length} sections, {tree.categories.length} categories and {tree.articles.length}{' '}
        articles ({drafts} {drafts === 1 ? 'draft' : 'drafts'}).
      </p>
      <p>
        Choose an article in the tree to edit it; for a category’s description and icon, select it and use
        Edit category. To add something, select where it goes and use the buttons above the tree; drafts stay
        hidden from visitors until they are published.
      </p>
      <h2>Keyboard</h2>
      <dl className="keys">
        <dt>↑ ↓ Home End</dt>
        <dd>Move through the tree</dd>
        <dt>→ ←</dt>
        <dd>Open or close a section or category</dd>
        <dt>Enter</dt>
        <dd>Open the article, or the category’s name, description and icon</dd>
        <dt>Space</dt>
        <dd>Open the article, or open or close a section or category</dd>
        <dt>Alt+↑ Alt+↓</dt>
        <dd>Move the selected item up or down among its siblings</dd>
        <dt>Alt+→ Alt+←</dt>
        <dd>Move it into the category above, or out of its category</dd>
        <dt>F2, Delete</dt>
        <dd>Rename, delete</dd>
      </dl>
    </div>
  );
}
