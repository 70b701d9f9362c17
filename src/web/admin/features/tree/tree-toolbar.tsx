import { useNavigate } from 'react-router';
import { LANGUAGES } from '../../../../shared/constants.ts';
import { translationPath } from '../../lib/translation-path.ts';
import { useSession } from '../../lib/use-session.ts';
import type { TreeNode } from '../../lib/tree-model.ts';
import type { TreeDialog } from './use-tree-dialogs.ts';

/** The container a new category or article goes into, given the selected item. */
function containerOf(node: TreeNode, byKey: Map<string, TreeNode>): TreeNode | undefined {
  return node.kind === 'article' ? byKey.get(node.parentKey ?? '') : node;
}

/** The buttons over the tree, acting on the selected item: the pointer's way to what the keys do. */
export function TreeToolbar({
  selected,
  byKey,
  open,
  openDialog,
}: {
  selected: TreeNode | undefined;
  byKey: Map<string, TreeNode>;
  open: (node: TreeNode) => void;
  openDialog: (dialog: TreeDialog) => void;
}) {
  const navigate = useNavigate();
  const { branding } = useSession();
  const firstOther = LANGUAGES.find((lang) => lang !== branding.lang) ?? branding.lang;
  const container = selected ? containerOf(selected, byKey) : undefined;
  return (
    <div className="tree-toolbar" role="group" aria-label="Content actions" aria-describedby="tree-selection">
      <div className="tool-group">
        <button type="button" className="tool" onClick={() => openDialog({ type: 'create-section' })}>
          New section
        </button>
        <button
          type="button"
          className="tool"
          disabled={!container}
          onClick={() => container && openDialog({ type: 'create-category', container })}
        >
          New category
        </button>
        <button
          type="button"
          className="tool"
          disabled={!container}
          onClick={() =>
            container &&
            navigate(
              `/articles/new?section=${container.sectionId}${container.kind === 'category' ? `&category=${container.id}` : ''}`,
            )
          }
        >
          New article
        </button>
      </div>
      <div className="tool-group">
        <button
          type="button"
          className="tool"
          disabled={!selected || selected.kind === 'article'}
          onClick={() => selected && openDialog({ type: 'rename', node: selected })}
        >
          Rename
        </button>
        <button
          type="button"
          className="tool"
          disabled={selected?.kind !== 'category'}
          onClick={() => selected && open(selected)}
        >
          Edit category
        </button>
        <button
          type="button"
          className="tool"
          disabled={selected?.kind !== 'section'}
          title="Translate the selected section's name (categories and articles: in their editor)"
          onClick={() => selected && navigate(translationPath('section', selected.id, firstOther))}
        >
          Translate
        </button>
        <button
          type="button"
          className="tool"
          disabled={!selected || selected.kind === 'section'}
          onClick={() => selected && openDialog({ type: 'move', node: selected })}
        >
          Move to…
        </button>
        <button
          type="button"
          className="tool tool-danger"
          disabled={!selected}
          onClick={() => selected && openDialog({ type: 'delete', node: selected })}
        >
          Delete
        </button>
      </div>
    </div>
  );
}
