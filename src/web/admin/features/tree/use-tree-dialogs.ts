import { useState } from 'react';
import type { TreeNode } from '../../lib/tree-model.ts';

export type TreeDialog =
  | { type: 'create-section' }
  | { type: 'create-category'; container: TreeNode }
  | { type: 'rename'; node: TreeNode }
  | { type: 'move'; node: TreeNode }
  | { type: 'delete'; node: TreeNode };

/** The one dialog the tree shows at a time, if any. */
export function useTreeDialogs() {
  const [dialog, setDialog] = useState<TreeDialog | null>(null);
  return { dialog, openDialog: setDialog, closeDialog: () => setDialog(null) };
}
