import { useNavigate } from 'react-router';
import type { AdminTree, MoveBody } from '../../../../shared/api/admin.ts';
import { adminCall } from '../../api/admin-api.ts';
import { DeleteDialog, MoveDialog, NameDialog } from './tree-dialogs.tsx';
import { buildForest, keyOf, type Forest, type TreeNode } from '../../lib/tree-model.ts';
import type { TreeDialog } from './use-tree-dialogs.ts';
import type { Visibility } from '../../../../shared/constants.ts';

/** What each dialog does once done: the server's change, the tree reloaded, focus on the item, the live region told. */
function useTreeDialogActions({
  setTree,
  reload,
  expand,
  focusItem,
  announce,
  openKey,
}: {
  setTree: (tree: AdminTree) => void;
  reload: () => Promise<void>;
  expand: (keys: string[]) => void;
  focusItem: (key: string | undefined) => void;
  announce: (text: string) => void;
  openKey: string | null;
}) {
  const navigate = useNavigate();
  const afterChange = async (focus?: string) => {
    await reload();
    if (focus) focusItem(focus);
  };
  const createSection = async (name: string, visibility: Visibility | undefined) => {
    const section = await adminCall('createSection', { body: { name, visibility } });
    await afterChange(keyOf('section', section.id));
    announce(`Created section “${name}”.`);
  };
  const createCategory = async (into: TreeNode, name: string, visibility: Visibility | undefined) => {
    const category = await adminCall('createCategory', {
      body: {
        name,
        visibility,
        section_id: into.sectionId,
        parent_id: into.kind === 'category' ? into.id : null,
      },
    });
    expand([into.key]);
    await afterChange(keyOf('category', category.id));
    announce(`Created category “${name}” in “${into.name}”.`);
  };
  const rename = async (node: TreeNode, name: string, visibility: Visibility | undefined) => {
    const body = { name, visibility };
    if (node.kind === 'section') await adminCall('updateSection', { params: { id: node.id }, body });
    else await adminCall('updateCategory', { params: { id: node.id }, body });
    await afterChange(node.key);
    announce(`Renamed to “${name}”.`);
  };
  const deleted = async (node: TreeNode) => {
    const next = await adminCall('getAdminTree');
    setTree(next);
    const after = buildForest(next);
    focusItem(after.byKey.has(node.parentKey ?? '') ? (node.parentKey ?? undefined) : after.roots[0]?.key);
    announce(`Deleted “${node.name}”.`);
    if (openKey && !after.byKey.has(openKey)) navigate('/');
  };
  return { createSection, createCategory, rename, deleted };
}

/**
 * The open dialog with what it does once done: the server's change, the tree reloaded, focus on the item made or
 * changed, and the live region told.
 */
export function TreeDialogsHost({
  dialog,
  onClose,
  forest,
  openKey,
  setTree,
  reload,
  expand,
  focusItem,
  announce,
  runMove,
}: {
  dialog: TreeDialog | null;
  onClose: () => void;
  forest: Forest;
  openKey: string | null;
  setTree: (tree: AdminTree) => void;
  reload: () => Promise<void>;
  expand: (keys: string[]) => void;
  focusItem: (key: string | undefined) => void;
  announce: (text: string) => void;
  runMove: (node: TreeNode, body: MoveBody) => Promise<void>;
}) {
  const { createSection, createCategory, rename, deleted } = useTreeDialogActions({
    setTree,
    reload,
    expand,
    focusItem,
    announce,
    openKey,
  });

  switch (dialog?.type) {
    case 'create-section':
      return (
        <NameDialog
          title="New section"
          initialVisibility="everyone"
          submitLabel="Create section"
          onClose={onClose}
          onSubmit={createSection}
        />
      );
    case 'create-category':
      return (
        <NameDialog
          title={`New category in “${dialog.container.name}”`}
          submitLabel="Create category"
          initialVisibility="everyone"
          onClose={onClose}
          onSubmit={(name, visibility) => createCategory(dialog.container, name, visibility)}
        />
      );
    case 'rename':
      return (
        <NameDialog
          title={`Rename “${dialog.node.name}”`}
          initial={dialog.node.name}
          initialVisibility={dialog.node.visibility}
          submitLabel="Save"
          onClose={onClose}
          onSubmit={(name, visibility) => rename(dialog.node, name, visibility)}
        />
      );
    case 'move':
      return (
        <MoveDialog
          forest={forest}
          node={dialog.node}
          onClose={onClose}
          onMove={(body) => runMove(dialog.node, body)}
        />
      );
    case 'delete':
      return (
        <DeleteDialog
          forest={forest}
          node={dialog.node}
          onClose={onClose}
          onDeleted={() => deleted(dialog.node)}
        />
      );
    default:
      return null;
  }
}
