import { useState, type DragEvent, type HTMLAttributes } from 'react';
import type { MoveBody } from '../../../../shared/api/admin.ts';
import { planDrop, type DropPosition, type Forest, type TreeNode } from '../../lib/tree-model.ts';

/** Where a drop on this row would put the dragged item, from how far down the row the pointer is. */
function dropZone(event: DragEvent<HTMLElement>, target: TreeNode, dragged: TreeNode): DropPosition {
  const rect = event.currentTarget.getBoundingClientRect();
  const y = (event.clientY - rect.top) / Math.max(rect.height, 1);
  const holds = target.kind !== 'article' && dragged.kind !== 'section';
  if (holds && dragged.kind === target.kind) return y < 0.25 ? 'before' : y > 0.75 ? 'after' : 'inside';
  if (holds) return 'inside';
  return y < 0.5 ? 'before' : 'after';
}

export interface TreeDragAndDrop {
  /** The class names that draw a row as dragged or as a drop target. */
  rowClassesOf: (node: TreeNode) => string[];
  /** What makes a row draggable and a drop target. */
  dragPropsOf: (node: TreeNode) => HTMLAttributes<HTMLDivElement>;
}

/** Drag and drop with the pointer: the same moves as Alt+arrows, planned from where the row is dropped on. */
export function useTreeDragAndDrop({
  forest,
  runMove,
}: {
  forest: Forest;
  runMove: (node: TreeNode, body: MoveBody) => Promise<void>;
}): TreeDragAndDrop {
  const [dragKey, setDragKey] = useState<string | null>(null);
  const [hint, setHint] = useState<{ key: string; where: DropPosition } | null>(null);

  const dragged = dragKey ? forest.byKey.get(dragKey) : undefined;
  const dropPlan = (event: DragEvent<HTMLElement>, target: TreeNode) => {
    if (!dragged) return null;
    const where = dropZone(event, target, dragged);
    const body = planDrop(forest, dragged.key, target.key, where);
    return body ? { where, body } : null;
  };

  const rowClassesOf = (node: TreeNode) => [
    hint?.key === node.key ? `drop-${hint.where}` : '',
    dragKey === node.key ? 'dragging' : '',
  ];

  const dragPropsOf = (node: TreeNode): HTMLAttributes<HTMLDivElement> => ({
    draggable: true,
    onDragStart: (event) => {
      event.stopPropagation();
      event.dataTransfer.effectAllowed = 'move';
      event.dataTransfer.setData('text/plain', node.name);
      setDragKey(node.key);
    },
    onDragOver: (event) => {
      const plan = dropPlan(event, node);
      if (!plan) {
        if (hint?.key === node.key) setHint(null);
        return;
      }
      event.preventDefault();
      event.dataTransfer.dropEffect = 'move';
      if (hint?.key !== node.key || hint.where !== plan.where) setHint({ key: node.key, where: plan.where });
    },
    onDragLeave: () => hint?.key === node.key && setHint(null),
    onDrop: (event) => {
      event.preventDefault();
      const plan = dropPlan(event, node);
      const moving = dragged;
      setDragKey(null);
      setHint(null);
      if (plan && moving) void runMove(moving, plan.body).catch(() => undefined);
    },
    onDragEnd: () => {
      setDragKey(null);
      setHint(null);
    },
  });

  return { rowClassesOf, dragPropsOf };
}
