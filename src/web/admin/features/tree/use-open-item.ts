import { useEffect } from 'react';
import { useMatch, useNavigate } from 'react-router';
import { ancestorsOf, keyOf, type Forest, type TreeNode } from '../../lib/tree-model.ts';

export interface OpenItem {
  /** The article or category open on the right, if any. */
  openKey: string | null;
  /** Enter: opens what has a page of its own (articles, categories) and folds sections. */
  open: (node: TreeNode) => void;
  /** Space: opens articles and folds the rest. */
  activate: (node: TreeNode) => void;
}

/** The tree and the page on the right follow each other: the article open in the editor is shown and selected. */
export function useOpenItem({
  forest,
  expand,
  toggle,
  select,
}: {
  forest: Forest;
  expand: (keys: string[]) => void;
  toggle: (node: TreeNode) => void;
  select: (key: string) => void;
}): OpenItem {
  const navigate = useNavigate();
  const articleMatch = useMatch('/articles/:id');
  const categoryMatch = useMatch('/categories/:id');
  const openKey = articleMatch?.params.id
    ? keyOf('article', Number(articleMatch.params.id))
    : categoryMatch?.params.id
      ? keyOf('category', Number(categoryMatch.params.id))
      : null;
  const openKnown = openKey !== null && forest.byKey.has(openKey);

  useEffect(() => {
    if (!openKey || !openKnown) return;
    expand(ancestorsOf(forest, openKey).map((node) => node.key));
    select(openKey);
    // Only when another article opens, not on every change of the tree.
  }, [openKey, openKnown]);

  const open = (node: TreeNode) => {
    if (node.kind === 'article') navigate(`/articles/${node.id}`);
    else if (node.kind === 'category') navigate(`/categories/${node.id}`);
    else toggle(node);
  };
  const activate = (node: TreeNode) => {
    if (node.kind === 'article') navigate(`/articles/${node.id}`);
    else toggle(node);
  };

  return { openKey, open, activate };
}
