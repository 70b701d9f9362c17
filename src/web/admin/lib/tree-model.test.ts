import { describe, expect, it } from 'vitest';
import type { AdminTree } from '../../../shared/api/admin.ts';
import {
  buildForest,
  describePlace,
  destinationsFor,
  planDrop,
  planIndent,
  planOutdent,
  planReorder,
  refugesFor,
  visibleNodes,
} from './tree-model.ts';

const at = '2025-01-01T00:00:00.000Z';
const section = (id: number, name: string, position: number) => ({
  id,
  name,
  position,
  visibility: 'everyone' as const,
  updated_at: at,
});
const category = (
  id: number,
  section_id: number,
  parent_id: number | null,
  name: string,
  position: number,
) => ({
  id,
  section_id,
  parent_id,
  name,
  position,
  description: '',
  icon_type: null,
  font_icon: null,
  icon_url: null,
  visibility: 'everyone' as const,
  updated_at: at,
});
const article = (
  id: number,
  section_id: number,
  category_id: number | null,
  title: string,
  position: number,
  published = true,
) => ({
  id,
  section_id,
  category_id,
  title,
  position,
  published,
  can_create_issue: false,
  visibility: 'everyone' as const,
  updated_at: at,
});

// Positions are given out of order on purpose: the tree sorts by position, then id.
const data: AdminTree = {
  sections: [section(2, 'Billing', 1), section(1, 'Getting started', 0)],
  categories: [
    category(11, 1, null, 'Install', 1),
    category(10, 1, null, 'Accounts', 0),
    category(12, 1, 10, 'Passwords', 0),
    category(13, 1, 12, 'Two-factor', 0),
  ],
  articles: [
    article(100, 1, null, 'Welcome', 0),
    article(101, 1, null, 'First steps', 1, false),
    article(102, 1, 10, 'Sign up', 0),
    article(103, 1, 10, 'Close an account', 1),
    article(104, 2, null, 'Invoices', 0),
  ],
};
const forest = buildForest(data);
const names = (keys: string[]) => keys.map((key) => forest.byKey.get(key)?.name);

describe('the content tree', () => {
  it('nests categories by parent and articles by category, categories first, in stored order', () => {
    expect(forest.roots.map((root) => root.name)).toEqual(['Getting started', 'Billing']);
    const started = forest.roots[0]!;
    expect(started.children.map((child) => child.name)).toEqual([
      'Accounts',
      'Install',
      'Welcome',
      'First steps',
    ]);
    const accounts = forest.byKey.get('category:10')!;
    expect(accounts.children.map((child) => child.name)).toEqual([
      'Passwords',
      'Sign up',
      'Close an account',
    ]);
    expect(accounts.level).toBe(2);
    expect(forest.byKey.get('category:13')!.level).toBe(4);
    expect(forest.byKey.get('article:101')!.published).toBe(false);
  });

  it('lists what is visible given the expanded items', () => {
    const visible = visibleNodes(forest.roots, new Set(['section:1', 'category:10']));
    expect(visible.map((node) => node.name)).toEqual([
      'Getting started',
      'Accounts',
      'Passwords',
      'Sign up',
      'Close an account',
      'Install',
      'Welcome',
      'First steps',
      'Billing',
    ]);
  });

  it('reorders among siblings of the same kind and refuses to leave the list', () => {
    expect(planReorder(forest, 'article:100', 1)).toEqual({
      kind: 'article',
      id: 100,
      section_id: 1,
      parent_id: null,
      index: 1,
    });
    expect(planReorder(forest, 'article:100', -1)).toBeNull();
    expect(planReorder(forest, 'section:2', -1)).toEqual({ kind: 'section', id: 2, index: 0 });
    expect(planReorder(forest, 'category:12', 1)).toBeNull();
  });

  it('indents into the category above and outdents next to the parent', () => {
    expect(planIndent(forest, 'category:11')).toEqual({
      kind: 'category',
      id: 11,
      section_id: 1,
      parent_id: 10,
      index: 1,
    });
    // An article goes into the last category of its level, after the articles already there.
    expect(planIndent(forest, 'article:100')).toEqual({
      kind: 'article',
      id: 100,
      section_id: 1,
      parent_id: 11,
      index: 0,
    });
    expect(planIndent(forest, 'category:10')).toBeNull();
    expect(planOutdent(forest, 'category:12')).toEqual({
      kind: 'category',
      id: 12,
      section_id: 1,
      parent_id: null,
      index: 1,
    });
    expect(planOutdent(forest, 'article:102')).toEqual({
      kind: 'article',
      id: 102,
      section_id: 1,
      parent_id: null,
      index: 0,
    });
    expect(planOutdent(forest, 'category:10')).toBeNull();
  });

  it('plans drops before, after and inside, and refuses what cannot be', () => {
    expect(planDrop(forest, 'article:103', 'article:102', 'before')).toMatchObject({
      parent_id: 10,
      index: 0,
    });
    expect(planDrop(forest, 'article:102', 'article:103', 'after')).toMatchObject({
      parent_id: 10,
      index: 1,
    });
    expect(planDrop(forest, 'article:104', 'category:13', 'inside')).toEqual({
      kind: 'article',
      id: 104,
      section_id: 1,
      parent_id: 13,
      index: 0,
    });
    expect(planDrop(forest, 'section:2', 'section:1', 'before')).toEqual({
      kind: 'section',
      id: 2,
      index: 0,
    });
    // Already there, a category into its own descendant, kinds that do not line up.
    expect(planDrop(forest, 'article:102', 'article:103', 'before')).toBeNull();
    expect(planDrop(forest, 'category:10', 'category:13', 'inside')).toBeNull();
    expect(planDrop(forest, 'category:10', 'article:100', 'before')).toBeNull();
    expect(planDrop(forest, 'section:1', 'category:10', 'inside')).toBeNull();
  });

  it('offers every place a category may move to, never inside itself', () => {
    const places = destinationsFor(forest, 'category:12').map((d) => d.label);
    expect(places).toEqual([
      'Getting started',
      'Getting started › Accounts',
      'Getting started › Install',
      'Billing',
    ]);
    const forArticle = destinationsFor(forest, 'article:100');
    expect(forArticle.find((d) => d.key === 'section:1')?.count).toBe(1);
    expect(names(forArticle.map((d) => d.key))).toContain('Two-factor');
  });

  it('offers a place for the contents of a section or category being deleted, outside it', () => {
    expect(refugesFor(forest, 'category:10').map((d) => d.label)).toEqual([
      'Getting started',
      'Getting started › Install',
      'Billing',
    ]);
    expect(refugesFor(forest, 'section:1').map((d) => d.label)).toEqual(['Billing']);
  });

  it('says where an item is', () => {
    expect(describePlace(forest, 'article:103')).toBe('position 2 of 2 in “Accounts”');
    expect(describePlace(forest, 'section:2')).toBe('position 2 of 2 among sections');
  });
});
