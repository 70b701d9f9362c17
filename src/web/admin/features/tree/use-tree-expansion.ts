import { useEffect, useState } from 'react';
import type { TreeNode } from '../../lib/tree-model.ts';

const EXPANDED_KEY = 'signpost.admin.expanded';

function readExpanded(): Set<string> | null {
  try {
    const raw = window.sessionStorage.getItem(EXPANDED_KEY);
    return raw ? new Set(JSON.parse(raw) as string[]) : null;
  } catch {
    return null;
  }
}

function writeExpanded(keys: Set<string>): void {
  try {
    window.sessionStorage.setItem(EXPANDED_KEY, JSON.stringify([...keys]));
  } catch {
    // Without storage the tree just forgets what was open.
  }
}

const withAll = (set: Set<string>, keys: string[]) =>
  keys.every((key) => set.has(key)) ? set : new Set([...set, ...keys]);

export interface TreeExpansion {
  expanded: Set<string>;
  /** Opens these items, leaving the others as they are. */
  expand: (keys: string[]) => void;
  /** Opens or closes one item (by default the other way round); items without children stay as they are. */
  toggle: (node: TreeNode, open?: boolean) => void;
}

/** Which items are open, kept for this tab so a reload shows the tree as it was (at first: the sections). */
export function useTreeExpansion(roots: TreeNode[]): TreeExpansion {
  const [expanded, setExpanded] = useState<Set<string>>(
    () => readExpanded() ?? new Set(roots.map((root) => root.key)),
  );

  useEffect(() => writeExpanded(expanded), [expanded]);

  const expand = (keys: string[]) => setExpanded((prev) => withAll(prev, keys));

  const toggle = (node: TreeNode, open = !expanded.has(node.key)) => {
    if (node.children.length === 0) return;
    setExpanded((prev) => {
      const next = new Set(prev);
      if (open) next.add(node.key);
      else next.delete(node.key);
      return next;
    });
  };

  return { expanded, expand, toggle };
}
