import { useEffect, useRef, useState } from 'react';
import type { Forest, TreeNode } from '../../lib/tree-model.ts';

export const domId = (key: string) => `tree-item-${key.replace(':', '-')}`;

export interface TreeFocus {
  /** The item holding the tree's one tab stop: the one last focused, or else the first visible. */
  current: string | null;
  selected: TreeNode | undefined;
  /** Makes the item current without moving the browser's focus (an article opened elsewhere). */
  select: (key: string) => void;
  /** Makes the item current and moves the browser's focus to it after the next render. */
  focusItem: (key: string | undefined) => void;
}

/** The roving tab stop: one item is current, and focus follows it once the tree has rendered it. */
export function useTreeFocus(forest: Forest, visible: TreeNode[]): TreeFocus {
  const [focusKey, setFocusKey] = useState<string | null>(null);
  const focusPending = useRef(false);

  const current = (focusKey && forest.byKey.has(focusKey) ? focusKey : null) ?? visible[0]?.key ?? null;
  const selected = current ? forest.byKey.get(current) : undefined;

  useEffect(() => {
    // While a dialog is open the tree is inert; focus moves once it has closed.
    if (!focusPending.current || !current || document.querySelector('dialog[open]')) return;
    focusPending.current = false;
    document.getElementById(domId(current))?.focus();
  });

  const focusItem = (key: string | undefined) => {
    if (!key) return;
    focusPending.current = true;
    setFocusKey(key);
  };

  return { current, selected, select: setFocusKey, focusItem };
}
