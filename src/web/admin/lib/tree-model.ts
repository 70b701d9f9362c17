import type { Visibility } from '../../../shared/constants.ts';
import type { AdminTree, MoveBody } from '../../../shared/api/admin.ts';

export type NodeKind = 'section' | 'category' | 'article';

export interface TreeNode {
  key: string;
  kind: NodeKind;
  id: number;
  name: string;
  /** Articles: whether visitors see it; sections and categories are always true. */
  published: boolean;
  /** Its own setting of who may read it (what it sits in may restrict it further). */
  visibility: Visibility;
  sectionId: number;
  /** Categories: the parent category; articles: the category; null at a section's top level and for sections. */
  categoryId: number | null;
  parentKey: string | null;
  /** 1 for sections, counting down the tree (aria-level). */
  level: number;
  /** Categories first, then articles, each in their stored order (the public site shows them so). */
  children: TreeNode[];
}

export interface Forest {
  roots: TreeNode[];
  byKey: Map<string, TreeNode>;
}

export const keyOf = (kind: NodeKind, id: number) => `${kind}:${id}`;

const byPosition = (a: { position: number; id: number }, b: { position: number; id: number }) =>
  a.position - b.position || a.id - b.id;

/** Nests the flat answer of GET /api/admin/tree: categories by parent_id, articles by category_id. */
export function buildForest(data: AdminTree): Forest {
  const byKey = new Map<string, TreeNode>();
  const place = (sectionId: number, categoryId: number | null) => `${sectionId}/${categoryId ?? ''}`;
  const categoriesIn = new Map<string, AdminTree['categories']>();
  for (const category of data.categories) {
    const at = place(category.section_id, category.parent_id);
    categoriesIn.set(at, [...(categoriesIn.get(at) ?? []), category]);
  }
  const articlesIn = new Map<string, AdminTree['articles']>();
  for (const article of data.articles) {
    const at = place(article.section_id, article.category_id);
    articlesIn.set(at, [...(articlesIn.get(at) ?? []), article]);
  }
  const add = (node: TreeNode) => {
    byKey.set(node.key, node);
    return node;
  };
  const contents = (sectionId: number, categoryId: number | null, parentKey: string, level: number) => {
    const at = place(sectionId, categoryId);
    const categories = [...(categoriesIn.get(at) ?? [])].sort(byPosition).map((category) => {
      const node = add({
        key: keyOf('category', category.id),
        kind: 'category',
        id: category.id,
        name: category.name,
        published: true,
        visibility: category.visibility,
        sectionId,
        categoryId,
        parentKey,
        level,
        children: [],
      });
      node.children = contents(sectionId, category.id, node.key, level + 1);
      return node;
    });
    const articles = [...(articlesIn.get(at) ?? [])].sort(byPosition).map((article) =>
      add({
        key: keyOf('article', article.id),
        kind: 'article',
        id: article.id,
        name: article.title,
        published: article.published,
        visibility: article.visibility,
        sectionId,
        categoryId,
        parentKey,
        level,
        children: [],
      }),
    );
    return [...categories, ...articles];
  };
  const roots = [...data.sections].sort(byPosition).map((section) => {
    const node = add({
      key: keyOf('section', section.id),
      kind: 'section',
      id: section.id,
      name: section.name,
      published: true,
      visibility: section.visibility,
      sectionId: section.id,
      categoryId: null,
      parentKey: null,
      level: 1,
      children: [],
    });
    node.children = contents(section.id, null, node.key, 2);
    return node;
  });
  return { roots, byKey };
}

/** The nodes a person sees, top to bottom, given which ones are expanded. */
export function visibleNodes(roots: TreeNode[], expanded: ReadonlySet<string>): TreeNode[] {
  const out: TreeNode[] = [];
  const walk = (nodes: TreeNode[]) => {
    for (const node of nodes) {
      out.push(node);
      if (node.children.length > 0 && expanded.has(node.key)) walk(node.children);
    }
  };
  walk(roots);
  return out;
}

export function ancestorsOf(forest: Forest, key: string): TreeNode[] {
  const out: TreeNode[] = [];
  let parentKey = forest.byKey.get(key)?.parentKey ?? null;
  while (parentKey) {
    const parent = forest.byKey.get(parentKey);
    if (!parent) break;
    out.unshift(parent);
    parentKey = parent.parentKey;
  }
  return out;
}

/** The items a move reorders it among: every section, or its own kind in the same place. */
export function siblingsOf(forest: Forest, node: TreeNode): TreeNode[] {
  if (node.kind === 'section') return forest.roots;
  const parent = node.parentKey ? forest.byKey.get(node.parentKey) : undefined;
  return (parent?.children ?? []).filter((child) => child.kind === node.kind);
}

const ofKindIn = (container: TreeNode, kind: NodeKind, without: string) =>
  container.children.filter((child) => child.kind === kind && child.key !== without);

/** Whether `node` may go into `container`: not a section, and a category never into itself or below itself. */
export function canContain(forest: Forest, container: TreeNode, node: TreeNode): boolean {
  if (node.kind === 'section' || container.kind === 'article') return false;
  if (node.kind === 'category') {
    if (container.key === node.key) return false;
    if (ancestorsOf(forest, container.key).some((above) => above.key === node.key)) return false;
  }
  return true;
}

function moveInto(node: TreeNode, container: TreeNode, index: number): MoveBody {
  return {
    kind: node.kind,
    id: node.id,
    section_id: container.sectionId,
    parent_id: container.kind === 'category' ? container.id : null,
    index,
  };
}

/** A move that would leave the item where it is is not worth a request. */
function changesSomething(forest: Forest, node: TreeNode, body: MoveBody): boolean {
  const index = siblingsOf(forest, node).indexOf(node);
  if (node.kind === 'section') return body.index !== index;
  const sameSection = body.section_id === node.sectionId;
  const sameParent = (body.parent_id ?? null) === node.categoryId;
  return !(sameSection && sameParent && body.index === index);
}

const worthIt = (forest: Forest, node: TreeNode, body: MoveBody) =>
  changesSomething(forest, node, body) ? body : null;

/** Alt+ArrowUp / Alt+ArrowDown: one place up or down among its siblings. */
export function planReorder(forest: Forest, key: string, delta: -1 | 1): MoveBody | null {
  const node = forest.byKey.get(key);
  if (!node) return null;
  const siblings = siblingsOf(forest, node);
  const index = siblings.indexOf(node) + delta;
  if (index < 0 || index >= siblings.length) return null;
  if (node.kind === 'section') return { kind: 'section', id: node.id, index };
  const parent = forest.byKey.get(node.parentKey ?? '');
  return parent ? moveInto(node, parent, index) : null;
}

/** Alt+ArrowRight: into the category shown just above it at its level, as that category's last item of its kind. */
export function planIndent(forest: Forest, key: string): MoveBody | null {
  const node = forest.byKey.get(key);
  if (!node || node.kind === 'section') return null;
  const parent = forest.byKey.get(node.parentKey ?? '');
  if (!parent) return null;
  const before = parent.children.slice(0, parent.children.indexOf(node));
  const target = before.filter((child) => child.kind === 'category').at(-1);
  if (!target) return null;
  return moveInto(node, target, ofKindIn(target, node.kind, node.key).length);
}

/** Alt+ArrowLeft: out of its category, next to it (a category) or first among the articles there (an article). */
export function planOutdent(forest: Forest, key: string): MoveBody | null {
  const node = forest.byKey.get(key);
  if (!node || node.kind === 'section') return null;
  const parent = forest.byKey.get(node.parentKey ?? '');
  if (!parent || parent.kind !== 'category') return null;
  const grand = forest.byKey.get(parent.parentKey ?? '');
  if (!grand) return null;
  const index = node.kind === 'category' ? ofKindIn(grand, 'category', node.key).indexOf(parent) + 1 : 0;
  return moveInto(node, grand, index);
}

export type DropPosition = 'before' | 'after' | 'inside';

/** Drag and drop: next to an item of the same kind, or inside a section or category (at the end). */
export function planDrop(
  forest: Forest,
  dragKey: string,
  targetKey: string,
  where: DropPosition,
): MoveBody | null {
  const node = forest.byKey.get(dragKey);
  const target = forest.byKey.get(targetKey);
  if (!node || !target || node.key === target.key) return null;
  if (where === 'inside') {
    if (!canContain(forest, target, node)) return null;
    return worthIt(forest, node, moveInto(node, target, ofKindIn(target, node.kind, node.key).length));
  }
  if (node.kind !== target.kind) return null;
  const shift = where === 'after' ? 1 : 0;
  if (node.kind === 'section') {
    const others = forest.roots.filter((root) => root.key !== node.key);
    return worthIt(forest, node, { kind: 'section', id: node.id, index: others.indexOf(target) + shift });
  }
  const container = forest.byKey.get(target.parentKey ?? '');
  if (!container || !canContain(forest, container, node)) return null;
  const others = ofKindIn(container, node.kind, node.key);
  return worthIt(forest, node, moveInto(node, container, others.indexOf(target) + shift));
}

export interface Destination {
  key: string;
  /** The path a person reads: Section › Category › Subcategory. */
  label: string;
  /** How many items of the moving kind are already there (the index for "at the end"). */
  count: number;
  node: TreeNode;
}

/** Every section and category in tree order, with its path, leaving out `except` and all inside it. */
function placesIn(forest: Forest, except?: string): { node: TreeNode; label: string }[] {
  const out: { node: TreeNode; label: string }[] = [];
  const walk = (nodes: TreeNode[], path: string[]) => {
    for (const candidate of nodes) {
      if (candidate.kind === 'article' || candidate.key === except) continue;
      const label = [...path, candidate.name];
      out.push({ node: candidate, label: label.join(' › ') });
      walk(candidate.children, label);
    }
  };
  walk(forest.roots, []);
  return out;
}

/** Every section and category, in tree order, with its path: where a new article may go. */
export const articlePlaces = (forest: Forest) => placesIn(forest);

/** Everywhere the Move to… dialog may send a category or an article. */
export function destinationsFor(forest: Forest, key: string): Destination[] {
  const node = forest.byKey.get(key);
  if (!node || node.kind === 'section') return [];
  return placesIn(forest)
    .filter((place) => canContain(forest, place.node, node))
    .map((place) => ({
      key: place.node.key,
      label: place.label,
      count: ofKindIn(place.node, node.kind, node.key).length,
      node: place.node,
    }));
}

/** Where the contents of a section or category may go before it is deleted: anywhere outside it. */
export function refugesFor(forest: Forest, key: string): Destination[] {
  const node = forest.byKey.get(key);
  if (!node || node.kind === 'article') return [];
  return placesIn(forest, node.key).map((place) => ({
    key: place.node.key,
    label: place.label,
    count: 0,
    node: place.node,
  }));
}

export function moveTo(node: TreeNode, destination: Destination, position: 'start' | 'end'): MoveBody {
  return moveInto(node, destination.node, position === 'start' ? 0 : destination.count);
}

/** Where an item now is, in words, for the live region after a move. */
export function describePlace(forest: Forest, key: string): string {
  const node = forest.byKey.get(key);
  if (!node) return '';
  const siblings = siblingsOf(forest, node);
  const position = `position ${siblings.indexOf(node) + 1} of ${siblings.length}`;
  if (node.kind === 'section') return `${position} among sections`;
  const parent = forest.byKey.get(node.parentKey ?? '');
  return `${position} in “${parent?.name ?? ''}”`;
}

export const KIND_LABEL: Record<NodeKind, string> = {
  section: 'section',
  category: 'category',
  article: 'article',
};
