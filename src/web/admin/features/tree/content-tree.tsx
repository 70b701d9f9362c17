import { useMemo } from 'react';
import { useContentTree } from '../../lib/content-tree-context.tsx';
import { EmptyContent } from './empty-content.tsx';
import { TreeDialogsHost } from './tree-dialogs-host.tsx';
import { TreeItems, type TreeItemState } from './tree-item.tsx';
import { TreeLiveRegion } from './tree-live-region.tsx';
import { visibleNodes } from '../../lib/tree-model.ts';
import { TreeToolbar } from './tree-toolbar.tsx';
import { useLiveRegion } from './use-live-region.ts';
import { useOpenItem } from './use-open-item.ts';
import { useTreeDialogs } from './use-tree-dialogs.ts';
import { useTreeDragAndDrop } from './use-tree-drag-and-drop.ts';
import { useTreeExpansion } from './use-tree-expansion.ts';
import { useTreeFocus } from './use-tree-focus.ts';
import { useTreeKeyboard } from './use-tree-keyboard.ts';
import { useTreeMoves } from './use-tree-moves.ts';

/**
 * Sections, categories and articles as an ARIA tree with one tab stop (roving tabindex). Arrows move, Alt+arrows
 * move the item itself; drag and drop does the same with the pointer. Every move is one POST /api/admin/move, and
 * the live region says where the item went.
 */
export function ContentTree() {
  const { forest, setTree, reload } = useContentTree();
  const { expanded, expand, toggle } = useTreeExpansion(forest.roots);
  const visible = useMemo(() => visibleNodes(forest.roots, expanded), [forest, expanded]);
  const { current, selected, select, focusItem } = useTreeFocus(forest, visible);
  const { openKey, open, activate } = useOpenItem({ forest, expand, toggle, select });
  const { announcement, announce } = useLiveRegion();
  const { dialog, openDialog, closeDialog } = useTreeDialogs();
  const { error, runMove, tryMove } = useTreeMoves({ setTree, expand, focusItem, announce });
  const dragAndDrop = useTreeDragAndDrop({ forest, runMove });
  const handleKeyDown = useTreeKeyboard({
    forest,
    visible,
    selected,
    expanded,
    expand,
    toggle,
    focusItem,
    open,
    activate,
    tryMove,
    openDialog,
  });
  const itemState: TreeItemState = { expanded, current, openKey, focusItem, toggle, dragAndDrop };

  return (
    <div className="content-tree">
      <TreeToolbar selected={selected} byKey={forest.byKey} open={open} openDialog={openDialog} />
      <p id="tree-selection" className="tree-selection">
        {selected ? (
          <>
            Selected {selected.kind}: <strong>{selected.name}</strong>
          </>
        ) : (
          'Nothing yet: start with a new section.'
        )}
      </p>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      {forest.roots.length === 0 && <EmptyContent />}
      <ul
        role="tree"
        aria-label="Sections, categories and articles"
        aria-describedby="tree-help"
        className="tree"
        onKeyDown={handleKeyDown}
      >
        <TreeItems nodes={forest.roots} tree={itemState} />
      </ul>
      <p id="tree-help" className="tree-help">
        Arrows move through the tree, Enter opens an article or a category. Alt+↑ and Alt+↓ reorder the
        selected item; Alt+← and Alt+→ move it out of or into a category; F2 renames, Delete deletes. Items
        can also be dragged.
      </p>
      {/* What each item is, read as its description. */}
      <span hidden id="tree-kind-section">
        Section
      </span>
      <span hidden id="tree-kind-category">
        Category
      </span>
      <span hidden id="tree-kind-article">
        Article
      </span>
      <TreeLiveRegion announcement={announcement} />
      <TreeDialogsHost
        dialog={dialog}
        onClose={closeDialog}
        forest={forest}
        openKey={openKey}
        setTree={setTree}
        reload={reload}
        expand={expand}
        focusItem={focusItem}
        announce={announce}
        runMove={runMove}
      />
    </div>
  );
}
