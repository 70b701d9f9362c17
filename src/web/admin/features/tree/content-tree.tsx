import { useEffect, useMemo, useRef, useState, type DragEvent, type KeyboardEvent } from 'react';
import { useMatch, useNavigate } from 'react-router';
import type { MoveBody } from '../../../../shared/api/admin.ts';
import { adminApi } from '../../api/admin-api.ts';
import { messageOf } from '../../lib/errors.ts';
import { useContentTree } from './content-tree-context.tsx';
import { DeleteDialog, MoveDialog, NameDialog } from './tree-dialogs.tsx';
import {
  ancestorsOf,
  buildForest,
  describePlace,
  keyOf,
  planDrop,
  planIndent,
  planOutdent,
  planReorder,
  visibleNodes,
  type DropPosition,
  type TreeNode,
} from './tree-model.ts';

type Dialog =
  | { type: 'create-section' }
  | { type: 'create-category'; container: TreeNode }
  | { type: 'rename'; node: TreeNode }
  | { type: 'move'; node: TreeNode }
  | { type: 'delete'; node: TreeNode };

const EXPANDED_KEY = 'signpost.admin.expanded';
const domId = (key: string) => `tree-item-${key.replace(':', '-')}`;

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

/** Where a drop on this row would put the dragged item, from how far down the row the pointer is. */
function dropZone(event: DragEvent<HTMLElement>, target: TreeNode, dragged: TreeNode): DropPosition {
  const rect = event.currentTarget.getBoundingClientRect();
  const y = (event.clientY - rect.top) / Math.max(rect.height, 1);
  const holds = target.kind !== 'article' && dragged.kind !== 'section';
  if (holds && dragged.kind === target.kind) return y < 0.25 ? 'before' : y > 0.75 ? 'after' : 'inside';
  if (holds) return 'inside';
  return y < 0.5 ? 'before' : 'after';
}

/** The container a new category or article goes into, given the selected item. */
function containerOf(node: TreeNode, byKey: Map<string, TreeNode>): TreeNode | undefined {
  return node.kind === 'article' ? byKey.get(node.parentKey ?? '') : node;
}

/**
 * Sections, categories and articles as an ARIA tree with one tab stop (roving tabindex). Arrows move, Alt+arrows
 * move the item itself; drag and drop does the same with the pointer. Every move is one POST /api/admin/move, and
 * the live region says where the item went.
 */
export function ContentTree() {
  const { forest, setTree, reload } = useContentTree();
  const navigate = useNavigate();
  const articleMatch = useMatch('/articles/:id');
  const categoryMatch = useMatch('/categories/:id');
  // The article or category open on the right.
  const openKey = articleMatch?.params.id
    ? keyOf('article', Number(articleMatch.params.id))
    : categoryMatch?.params.id
      ? keyOf('category', Number(categoryMatch.params.id))
      : null;
  const openKnown = openKey !== null && forest.byKey.has(openKey);

  const [expanded, setExpanded] = useState<Set<string>>(
    () => readExpanded() ?? new Set(forest.roots.map((root) => root.key)),
  );
  const [focusKey, setFocusKey] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [dragKey, setDragKey] = useState<string | null>(null);
  const [hint, setHint] = useState<{ key: string; where: DropPosition } | null>(null);
  const busy = useRef(false);
  const focusPending = useRef(false);

  const visible = useMemo(() => visibleNodes(forest.roots, expanded), [forest, expanded]);
  const current = (focusKey && forest.byKey.has(focusKey) ? focusKey : null) ?? visible[0]?.key ?? null;
  const selected = current ? forest.byKey.get(current) : undefined;

  useEffect(() => writeExpanded(expanded), [expanded]);

  // The article open in the editor is shown and selected in the tree.
  useEffect(() => {
    if (!openKey || !openKnown) return;
    setExpanded((prev) =>
      withAll(
        prev,
        ancestorsOf(forest, openKey).map((node) => node.key),
      ),
    );
    setFocusKey(openKey);
    // Only when another article opens, not on every change of the tree.
  }, [openKey, openKnown]);

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

  // Alternating a trailing space makes the same sentence twice still a change the live region reads.
  const announce = (text: string) => setAnnouncement((prev) => (prev.endsWith(' ') ? text : `${text} `));

  const toggle = (node: TreeNode, open = !expanded.has(node.key)) => {
    if (node.children.length === 0) return;
    setExpanded((prev) => {
      const next = new Set(prev);
      if (open) next.add(node.key);
      else next.delete(node.key);
      return next;
    });
  };

  /** Enter opens what has a page of its own (articles, categories); Space opens articles and folds the rest. */
  const open = (node: TreeNode) => {
    if (node.kind === 'article') navigate(`/articles/${node.id}`);
    else if (node.kind === 'category') navigate(`/categories/${node.id}`);
    else toggle(node);
  };
  const activate = (node: TreeNode) => {
    if (node.kind === 'article') navigate(`/articles/${node.id}`);
    else toggle(node);
  };

  const runMove = async (node: TreeNode, body: MoveBody) => {
    if (busy.current) {
      announce('Wait a moment: the last move is still being saved.');
      return;
    }
    busy.current = true;
    setError(null);
    try {
      const next = await adminApi.move(body);
      setTree(next);
      const after = buildForest(next);
      setExpanded((prev) =>
        withAll(
          prev,
          ancestorsOf(after, node.key).map((n) => n.key),
        ),
      );
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

  const handleKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
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
      F2: () => node.kind !== 'article' && setDialog({ type: 'rename', node }),
      Delete: () => setDialog({ type: 'delete', node }),
      '*': () => {
        const parent = node.parentKey ? forest.byKey.get(node.parentKey) : undefined;
        const siblings = parent ? parent.children : forest.roots;
        setExpanded((prev) =>
          withAll(
            prev,
            siblings.filter((n) => n.children.length > 0).map((n) => n.key),
          ),
        );
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

  const dragged = dragKey ? forest.byKey.get(dragKey) : undefined;
  const dropPlan = (event: DragEvent<HTMLElement>, target: TreeNode) => {
    if (!dragged) return null;
    const where = dropZone(event, target, dragged);
    const body = planDrop(forest, dragged.key, target.key, where);
    return body ? { where, body } : null;
  };

  const renderItem = (node: TreeNode, position: number, setSize: number) => {
    const isOpen = node.children.length > 0 && expanded.has(node.key);
    const labelId = `${domId(node.key)}-label`;
    const rowClass = [
      'tree-row',
      hint?.key === node.key ? `drop-${hint.where}` : '',
      dragKey === node.key ? 'dragging' : '',
    ]
      .filter(Boolean)
      .join(' ');
    return (
      <li
        key={node.key}
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
          draggable
          onClick={(event) => {
            event.stopPropagation();
            focusItem(node.key);
            if (node.kind === 'article') navigate(`/articles/${node.id}`);
          }}
          onDoubleClick={(event) => {
            event.stopPropagation();
            toggle(node);
          }}
          onDragStart={(event) => {
            event.stopPropagation();
            event.dataTransfer.effectAllowed = 'move';
            event.dataTransfer.setData('text/plain', node.name);
            setDragKey(node.key);
          }}
          onDragOver={(event) => {
            const plan = dropPlan(event, node);
            if (!plan) {
              if (hint?.key === node.key) setHint(null);
              return;
            }
            event.preventDefault();
            event.dataTransfer.dropEffect = 'move';
            if (hint?.key !== node.key || hint.where !== plan.where)
              setHint({ key: node.key, where: plan.where });
          }}
          onDragLeave={() => hint?.key === node.key && setHint(null)}
          onDrop={(event) => {
            event.preventDefault();
            const plan = dropPlan(event, node);
            const moving = dragged;
            setDragKey(null);
            setHint(null);
            if (plan && moving) void runMove(moving, plan.body).catch(() => undefined);
          }}
          onDragEnd={() => {
            setDragKey(null);
            setHint(null);
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
            {node.name}
            {!node.published && <span className="badge badge-draft">Draft</span>}
          </span>
        </div>
        {isOpen && (
          <ul role="group">
            {node.children.map((child, i) => renderItem(child, i + 1, node.children.length))}
          </ul>
        )}
      </li>
    );
  };

  const container = selected ? containerOf(selected, forest.byKey) : undefined;
  const afterChange = async (focus?: string) => {
    await reload();
    if (focus) focusItem(focus);
  };

  return (
    <div className="content-tree">
      <div
        className="tree-toolbar"
        role="group"
        aria-label="Content actions"
        aria-describedby="tree-selection"
      >
        <button type="button" className="tool" onClick={() => setDialog({ type: 'create-section' })}>
          New section
        </button>
        <button
          type="button"
          className="tool"
          disabled={!container}
          onClick={() => container && setDialog({ type: 'create-category', container })}
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
        <button
          type="button"
          className="tool"
          disabled={!selected || selected.kind === 'article'}
          onClick={() => selected && setDialog({ type: 'rename', node: selected })}
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
          disabled={!selected || selected.kind === 'section'}
          onClick={() => selected && setDialog({ type: 'move', node: selected })}
        >
          Move to…
        </button>
        <button
          type="button"
          className="tool tool-danger"
          disabled={!selected}
          onClick={() => selected && setDialog({ type: 'delete', node: selected })}
        >
          Delete
        </button>
      </div>
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
      <ul
        role="tree"
        aria-label="Sections, categories and articles"
        aria-describedby="tree-help"
        className="tree"
        onKeyDown={handleKeyDown}
      >
        {forest.roots.map((root, i) => renderItem(root, i + 1, forest.roots.length))}
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
      <p className="visually-hidden" role="status" aria-live="polite">
        {announcement}
      </p>

      {dialog?.type === 'create-section' && (
        <NameDialog
          title="New section"
          submitLabel="Create section"
          onClose={() => setDialog(null)}
          onSubmit={async (name) => {
            const section = await adminApi.createSection({ name });
            await afterChange(keyOf('section', section.id));
            announce(`Created section “${name}”.`);
          }}
        />
      )}
      {dialog?.type === 'create-category' && (
        <NameDialog
          title={`New category in “${dialog.container.name}”`}
          submitLabel="Create category"
          onClose={() => setDialog(null)}
          onSubmit={async (name) => {
            const { container: into } = dialog;
            const category = await adminApi.createCategory({
              name,
              section_id: into.sectionId,
              parent_id: into.kind === 'category' ? into.id : null,
            });
            setExpanded((prev) => withAll(prev, [into.key]));
            await afterChange(keyOf('category', category.id));
            announce(`Created category “${name}” in “${into.name}”.`);
          }}
        />
      )}
      {dialog?.type === 'rename' && (
        <NameDialog
          title={`Rename “${dialog.node.name}”`}
          initial={dialog.node.name}
          submitLabel="Rename"
          onClose={() => setDialog(null)}
          onSubmit={async (name) => {
            const { node } = dialog;
            if (node.kind === 'section') await adminApi.updateSection(node.id, { name });
            else await adminApi.updateCategory(node.id, { name });
            await afterChange(node.key);
            announce(`Renamed to “${name}”.`);
          }}
        />
      )}
      {dialog?.type === 'move' && (
        <MoveDialog
          forest={forest}
          node={dialog.node}
          onClose={() => setDialog(null)}
          onMove={(body) => runMove(dialog.node, body)}
        />
      )}
      {dialog?.type === 'delete' && (
        <DeleteDialog
          forest={forest}
          node={dialog.node}
          onClose={() => setDialog(null)}
          onDeleted={async () => {
            const { node } = dialog;
            const next = await adminApi.tree();
            setTree(next);
            const after = buildForest(next);
            focusItem(
              after.byKey.has(node.parentKey ?? '') ? (node.parentKey ?? undefined) : after.roots[0]?.key,
            );
            announce(`Deleted “${node.name}”.`);
            if (openKey && !after.byKey.has(openKey)) navigate('/');
          }}
        />
      )}
    </div>
  );
}
