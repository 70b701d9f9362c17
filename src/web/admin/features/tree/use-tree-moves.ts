import { useRef, useState } from 'react';
import type { AdminTree, MoveBody } from '../../../../shared/api/admin.ts';
import { adminCall } from '../../api/admin-api.ts';
import { messageOf } from '../../lib/errors.ts';
import { ancestorsOf, buildForest, describePlace, type TreeNode } from '../../lib/tree-model.ts';

export interface TreeMoves {
  /** The last move's failure, shown over the tree until the next move. */
  error: string | null;
  /** One POST /api/admin/move; rejects when the server refuses, after saying so. */
  runMove: (node: TreeNode, body: MoveBody) => Promise<void>;
  /** A move the keyboard asked for: `refusal` is said when there is nowhere to go. */
  tryMove: (node: TreeNode, body: MoveBody | null, refusal: string) => void;
}

/**
 * Every move, from the keyboard, drag and drop or the move dialog: one at a time, the server's tree taken as it
 * answers, the item kept visible and focused, and the live region told where it went.
 */
export function useTreeMoves({
  setTree,
  expand,
  focusItem,
  announce,
}: {
  setTree: (tree: AdminTree) => void;
  expand: (keys: string[]) => void;
  focusItem: (key: string) => void;
  announce: (text: string) => void;
}): TreeMoves {
  const [error, setError] = useState<string | null>(null);
  const busy = useRef(false);

  const runMove = async (node: TreeNode, body: MoveBody) => {
    if (busy.current) {
      announce('Wait a moment: the last move is still being saved.');
      return;
    }
    busy.current = true;
    setError(null);
    try {
      const next = await adminCall('moveItem', { body: body });
      setTree(next);
      const after = buildForest(next);
      expand(ancestorsOf(after, node.key).map((n) => n.key));
      focusItem(node.key);
      announce(`Moved “${node.name}” to ${describePlace(after, node.key)}.`);
    } catch (failure) {
      const text = `Could not move “${node.name}”: ${messageOf(failure)}`;
      setError(text);
      announce(text);
      throw failure;
    } finally {
      busy.current = false;
    }
  };

  const tryMove = (node: TreeNode, body: MoveBody | null, refusal: string) => {
    if (body) void runMove(node, body).catch(() => undefined);
    else announce(refusal);
  };

  return { error, runMove, tryMove };
}
