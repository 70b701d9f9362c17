import { useNavigate } from 'react-router';
import type { AdminTree, MoveBody } from '../../../../shared/api/admin.ts';
import { adminCall } from '../../api/admin-api.ts';
import { DeleteDialog, MoveDialog, NameDialog } from './tree-dialogs.tsx';
import { buildForest, keyOf, type Forest, type TreeNode } from '../../lib/tree-model.ts';
import type { TreeDialog } from './use-tree-dialogs.ts';

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
  const navigate = useNavigate();
  const afterChange = async (focus?: string) => {
    await reload();
    if (focus) focusItem(focus);
  };

  switch (dialog?.type) {
    case 'create-section':
      return (
        <NameDialog
          title="New section"
          initialVisibility="everyone"
          submitLabel="Create section"
          onClose={onClose}
          onSubmit={async (name, visibility) => {
            const section = await adminCall('createSection', { body: { name, visibility } });
            await afterChange(keyOf('section', section.id));
            announce(`Created section “${name}”.`);
          }}
        />
      );
    case 'create-category':
      return (
        <NameDialog
          title={`New category in “${dialog.container.name}”`}
          submitLabel="Create category"
          initialVisibility="everyone"
          onClose={onClose}
          onSubmit={async (name, visibility) => {
            const { container: into } = dialog;
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
          }}
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
          onSubmit={async (name, visibility) => {
            const { node } = dialog;
            const body = { name, visibility };
            if (node.kind === 'section') await adminCall('updateSection', { params: { id: node.id }, body });
            else await adminCall('updateCategory', { params: { id: node.id }, body });
            await afterChange(node.key);
            announce(`Renamed to “${name}”.`);
          }}
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
          onDeleted={async () => {
            const { node } = dialog;
            const next = await adminCall('getAdminTree');
            setTree(next);
            const after = buildForest(next);
            focusItem(
              after.byKey.has(node.parentKey ?? '') ? (node.parentKey ?? undefined) : after.roots[0]?.key,
            );
            announce(`Deleted “${node.name}”.`);
            if (openKey && !after.byKey.has(openKey)) navigate('/');
          }}
        />
      );
    default:
      return null;
  }
}
