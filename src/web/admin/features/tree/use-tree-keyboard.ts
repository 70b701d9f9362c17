import type { KeyboardEvent } from 'react';
import type { MoveBody } from '../../../../shared/api/admin.ts';
import { planIndent, planOutdent, planReorder, type Forest, type TreeNode } from '../../lib/tree-model.ts';
import type { TreeDialog } from './use-tree-dialogs.ts';

/**
 * The tree's keys, on the tree itself (one handler for all items): arrows move through it, Alt+arrows move the
 * selected item, Enter and Space open, F2 renames, Delete deletes, * opens the siblings, a letter jumps to the next
 * item starting with it.
 */
export function useTreeKeyboard({
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
}: {
  forest: Forest;
  visible: TreeNode[];
  selected: TreeNode | undefined;
  expanded: Set<string>;
  expand: (keys: string[]) => void;
  toggle: (node: TreeNode, open?: boolean) => void;
  focusItem: (key: string | undefined) => void;
  open: (node: TreeNode) => void;
  activate: (node: TreeNode) => void;
  tryMove: (node: TreeNode, body: MoveBody | null, refusal: string) => void;
  openDialog: (dialog: TreeDialog) => void;
}) {
  return (event: KeyboardEvent<HTMLUListElement>) => {
    if ((event.target as HTMLElement).getAttribute('role') !== 'treeitem' || !selected) return;
    const node = selected;
    const index = visible.findIndex((n) => n.key === node.key);
    if (event.altKey && !event.ctrlKey && !event.metaKey) {
      const moves: Record<string, () => void> = {
        ArrowUp: () => tryMove(node, planReorder(forest, node.key, -1), `“${node.name}” is already first.`),
        ArrowDown: () => tryMove(node, planReorder(forest, node.key, 1), `“${node.name}” is already last.`),
        ArrowLeft: () =>
          tryMove(node, planOutdent(forest, node.key), `“${node.name}” cannot move out further.`),
        ArrowRight: () =>
          tryMove(
            node,
            planIndent(forest, node.key),
            `There is no category above “${node.name}” to move into.`,
          ),
      };
      const move = moves[event.key];
      if (!move) return;
      event.preventDefault();
      move();
      return;
    }
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const keys: Record<string, () => void> = {
      ArrowDown: () => focusItem(visible[index + 1]?.key),
      ArrowUp: () => focusItem(visible[index - 1]?.key),
      Home: () => focusItem(visible[0]?.key),
      End: () => focusItem(visible.at(-1)?.key),
      ArrowRight: () => {
        if (node.children.length === 0) return;
        if (!expanded.has(node.key)) toggle(node, true);
        else focusItem(node.children[0]?.key);
      },
      ArrowLeft: () => {
        if (node.children.length > 0 && expanded.has(node.key)) toggle(node, false);
        else focusItem(node.parentKey ?? undefined);
      },
      Enter: () => open(node),
      ' ': () => activate(node),
      F2: () => node.kind !== 'article' && openDialog({ type: 'rename', node }),
      Delete: () => openDialog({ type: 'delete', node }),
      '*': () => {
        const parent = node.parentKey ? forest.byKey.get(node.parentKey) : undefined;
        const siblings = parent ? parent.children : forest.roots;
        expand(siblings.filter((n) => n.children.length > 0).map((n) => n.key));
      },
    };
    const action = keys[event.key];
    if (action) {
      event.preventDefault();
      action();
      return;
    }
    // Type-ahead: the next visible item whose name starts with the typed character.
    if (event.key.length === 1 && /\S/.test(event.key)) {
      const letter = event.key.toLocaleLowerCase();
      const order = [...visible.slice(index + 1), ...visible.slice(0, index + 1)];
      const found = order.find((n) => n.name.toLocaleLowerCase().startsWith(letter));
      if (found) {
        event.preventDefault();
        focusItem(found.key);
      }
    }
  };
}
