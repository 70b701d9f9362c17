import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import type { AdminTree } from '../../../shared/api/admin.ts';
import { adminCall } from '../api/admin-api.ts';
import { buildForest, type Forest } from './tree-model.ts';

interface ContentTree {
  tree: AdminTree;
  forest: Forest;
  /** The move endpoint answers the whole tree: take it as it is. */
  setTree: (tree: AdminTree) => void;
  /** After changes made elsewhere (an article saved, created or deleted). */
  reload: () => Promise<void>;
}

const ContentTreeContext = createContext<ContentTree | null>(null);

export function ContentTreeProvider({ initial, children }: { initial: AdminTree; children: ReactNode }) {
  const [tree, setTree] = useState(initial);
  const forest = useMemo(() => buildForest(tree), [tree]);
  const reload = useCallback(async () => setTree(await adminCall('getAdminTree')), []);
  const value = useMemo(() => ({ tree, forest, setTree, reload }), [tree, forest, reload]);
  return <ContentTreeContext.Provider value={value}>{children}</ContentTreeContext.Provider>;
}

export function useContentTree(): ContentTree {
  const value = useContext(ContentTreeContext);
  if (!value) throw new Error('useContentTree needs a ContentTreeProvider');
  return value;
}
