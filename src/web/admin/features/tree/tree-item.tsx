import { useNavigate } from 'react-router';
import type { TreeNode } from '../../lib/tree-model.ts';
import type { TreeDragAndDrop } from './use-tree-drag-and-drop.ts';
import { domId } from './use-tree-focus.ts';

/** What every item of the tree needs to know about the tree around it. */
export interface TreeItemState {
  expanded: Set<string>;
  current: string | null;
  openKey: string | null;
  focusItem: (key: string) => void;
  toggle: (node: TreeNode) => void;
  dragAndDrop: TreeDragAndDrop;
}

/** One item with its row (twisty, icon, name, draft badge) and, when open, its children. */
export function TreeItem({
  node,
  position,
  setSize,
  tree,
}: {
  node: TreeNode;
  position: number;
  setSize: number;
  tree: TreeItemState;
}) {
  const navigate = useNavigate();
  const { expanded, current, openKey, focusItem, toggle, dragAndDrop } = tree;
  const isOpen = node.children.length > 0 && expanded.has(node.key);
  const labelId = `${domId(node.key)}-label`;
  const rowClass = ['tree-row', ...dragAndDrop.rowClassesOf(node)].filter(Boolean).join(' ');
  return (
    <li
      id={domId(node.key)}
      role="treeitem"
      aria-level={node.level}
      aria-setsize={setSize}
      aria-posinset={position}
      aria-expanded={node.children.length > 0 ? isOpen : undefined}
      aria-selected={node.key === current}
      aria-labelledby={labelId}
      aria-describedby={`tree-kind-${node.kind}`}
      aria-current={node.key === openKey ? 'page' : undefined}
      tabIndex={node.key === current ? 0 : -1}
      className={`tree-item tree-${node.kind}`}
      data-key={node.key}
    >
      <div
        className={rowClass}
        style={{ paddingLeft: `${(node.level - 1) * 1.25 + 0.25}rem` }}
        {...dragAndDrop.dragPropsOf(node)}
        onClick={(event) => {
          event.stopPropagation();
          focusItem(node.key);
          if (node.kind === 'article') navigate(`/articles/${node.id}`);
        }}
        onDoubleClick={(event) => {
          event.stopPropagation();
          toggle(node);
        }}
      >
        <span
          className="twisty"
          aria-hidden="true"
          onClick={(event) => {
            event.stopPropagation();
            focusItem(node.key);
            toggle(node);
          }}
        >
          {node.children.length > 0 ? (isOpen ? '▾' : '▸') : ''}
        </span>
        <span className={`tree-icon tree-icon-${node.kind}`} aria-hidden="true" />
        <span id={labelId} className="tree-label">
          {node.visibility === 'signed_in' && (
            <span className="badge badge-restricted" title="Only signed-in customers can read it">
              Signed-in
            </span>
          )}
          {node.name}
          {!node.published && <span className="badge badge-draft">Draft</span>}
        </span>
      </div>
      {isOpen && (
        <ul role="group">
          <TreeItems nodes={node.children} tree={tree} />
        </ul>
      )}
    </li>
  );
}

/** Siblings, in order: each item says where it stands among them. */
export function TreeItems({ nodes, tree }: { nodes: TreeNode[]; tree: TreeItemState }) {
  return nodes.map((node, i) => (
    <TreeItem key={node.key} node={node} position={i + 1} setSize={nodes.length} tree={tree} />
  ));
}
