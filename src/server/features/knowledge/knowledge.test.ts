import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { touchContent } from '../../revisions/revision.repository.ts';
import type {
  Category,
  Instruction,
  InstructionNearby,
  InstructionSummary,
  Section,
} from '../../../shared/api/knowledge.ts';
import { RELATED_ARTICLES, SIDEBAR_ARTICLES } from '../../../shared/constants.ts';
import type { PagedList } from '../../../shared/api/common.ts';
import type { ArticleRow, CategoryRow, FileRow, SectionRow } from '../../db/tables.ts';
import { PNG } from '../../testing/admin-content.ts';
import { expectApiError } from '../../testing/api-expect.ts';
import { buildArticle, buildCategory, buildFile, buildSection } from '../../testing/factories.ts';
import { createTestApp, testDialects, type TestApp } from '../../testing/test-context.ts';

describe.each(testDialects())('knowledge API on %s', (dialect) => {
  /**
   * Guides: Setup (an article and a draft) > { Advanced (drafts only), Deep (nothing of its own) > Deeper (an
   * article) }, Empty (nothing), plus an article and a draft directly in the section.
   * News: two articles, no categories. Hidden: drafts only, in a category and outside. Void: nothing at all.
   */
  describe('visibility, counts and shapes', () => {
    let t: TestApp;
    let guides: SectionRow, news: SectionRow, hidden: SectionRow;
    let setup: CategoryRow, advanced: CategoryRow, deep: CategoryRow, deeper: CategoryRow, empty: CategoryRow;
    let hiddenCategory: CategoryRow;
    let install: ArticleRow, setupDraft: ArticleRow, tuning: ArticleRow, welcome: ArticleRow;
    let newsOld: ArticleRow, newsNew: ArticleRow, secret: ArticleRow;
    let icon: FileRow, manual: FileRow, notes: FileRow;

    const get = (url: string) => t.app.inject(url);

    beforeAll(async () => {
      t = await createTestApp(dialect);
      const { db } = t.ctx;
      guides = await buildSection(db, { name: 'Guides', position: 1 });
      news = await buildSection(db, { name: 'News', position: 2 });
      hidden = await buildSection(db, { name: 'Hidden', position: 3 });
      await buildSection(db, { name: 'Void', position: 4 });

      icon = await buildFile(t.ctx, { name: 'setup.png', content: PNG });
      setup = await buildCategory(db, {
        section_id: guides.id,
        name: 'Setup',
        position: 1,
        description: '<p>Everything about <strong>setting up</strong>.</p>',
        icon_file_id: icon.id,
        icon_type: 'file',
      });
      empty = await buildCategory(db, { section_id: guides.id, name: 'Empty', position: 2 });
      advanced = await buildCategory(db, { parent_id: setup.id, name: 'Advanced', position: 1 });
      deep = await buildCategory(db, {
        parent_id: setup.id,
        name: 'Deep',
        position: 2,
        icon_type: 'font',
        font_icon: 'fa-anchor',
      });
      deeper = await buildCategory(db, { parent_id: deep.id, name: 'Deeper', position: 1 });

      install = await buildArticle(db, {
        category_id: setup.id,
        title: 'Install the app',
        body_html: '<h2>Steps</h2><p>Run it.</p>',
        can_create_issue: 1,
        position: 1,
      });
      setupDraft = await buildArticle(db, { category_id: setup.id, title: 'Setup draft', published: 0 });
      await buildArticle(db, { category_id: advanced.id, title: 'Advanced draft', published: 0 });
      tuning = await buildArticle(db, { category_id: deeper.id, title: 'Tuning' });
      welcome = await buildArticle(db, { section_id: guides.id, title: 'Welcome', position: 1 });
      await buildArticle(db, { section_id: guides.id, title: 'Welcome draft', published: 0, position: 2 });
      newsNew = await buildArticle(db, { section_id: news.id, title: 'November news', position: 1 });
      newsOld = await buildArticle(db, { section_id: news.id, title: 'October news', position: 2 });
      hiddenCategory = await buildCategory(db, { section_id: hidden.id, name: 'Secret things' });
      secret = await buildArticle(db, { category_id: hiddenCategory.id, title: 'Secret', published: 0 });
      await buildArticle(db, { section_id: hidden.id, title: 'Also secret', published: 0 });

      manual = await buildFile(t.ctx, {
        name: 'manual.pdf',
        content: '%PDF-1.4 manual',
        articleId: install.id,
      });
      notes = await buildFile(t.ctx, { name: 'Заметки.txt', content: 'notes', articleId: install.id });
    });
    afterAll(async () => t?.close());

    const fileRef = (file: FileRow) => ({
      id: file.id,
      original_name: file.original_name,
      file_size: Number(file.size),
      link: `/files/${file.id}/${encodeURIComponent(file.original_name)}`,
    });

    describe('GET /api/knowledge/all-sections', () => {
      it('lists only sections with something visible, in order, with counts of visible things', async () => {
        const response = await get('/api/knowledge/all-sections');
        expect(response.statusCode).toBe(200);
        expect(response.headers['content-type']).toMatch(/^application\/json/);
        expect(response.json<Section[]>()).toEqual([
          // Setup is the only visible top-level category (Empty holds nothing); Welcome is the only published
          // article outside a category.
          { id: guides.id, name: 'Guides', lang: 'en', count_category: 1, count_instruction: 1 },
          { id: news.id, name: 'News', lang: 'en', count_category: 0, count_instruction: 2 },
        ]);
      });

      it('shows a section once its only draft is published and hides it again when it is unpublished', async () => {
        const { db } = t.ctx;
        const ids = async () => (await get('/api/knowledge/all-sections')).json<Section[]>().map((s) => s.id);
        // As every write path does, the change moves the content's revision (cached answers depend on it).
        await db.updateTable('articles').set({ published: 1 }).where('id', '=', secret.id).execute();
        await touchContent(db);
        try {
          expect(await ids()).toEqual([guides.id, news.id, hidden.id]);
          const shown = (await get('/api/knowledge/all-sections')).json<Section[]>()[2];
          expect(shown).toEqual({
            id: hidden.id,
            name: 'Hidden',
            lang: 'en',
            count_category: 1,
            count_instruction: 0,
          });
        } finally {
          await db.updateTable('articles').set({ published: 0 }).where('id', '=', secret.id).execute();
          await touchContent(db);
        }
        expect(await ids()).toEqual([guides.id, news.id]);
      });
    });

    describe('GET /api/knowledge/category', () => {
      it('answers the bundle of every visible category without parameters', async () => {
        const response = await get('/api/knowledge/category');
        expect(response.statusCode).toBe(200);
        const body = response.json<PagedList<Category>>();
        // The bundle is flat (the client builds the tree); its order among levels is not part of the contract.
        expect([...body.items].sort((a, b) => a.id - b.id)).toEqual([
          {
            id: setup.id,
            name: 'Setup',
            lang: 'en',
            section_id: guides.id,
            parent_id: null,
            description: '<p>Everything about <strong>setting up</strong>.</p>',
            icon: fileRef(icon),
            icon_type: 'file',
            font_icon: null,
            // Deep is visible through Deeper; Advanced holds only a draft.
            count_category: 1,
            count_instruction: 1,
          },
          {
            id: deep.id,
            name: 'Deep',
            lang: 'en',
            section_id: guides.id,
            parent_id: setup.id,
            description: '',
            icon: null,
            icon_type: 'font',
            font_icon: 'fa-anchor',
            count_category: 1,
            count_instruction: 0,
          },
          {
            id: deeper.id,
            name: 'Deeper',
            lang: 'en',
            section_id: guides.id,
            parent_id: deep.id,
            description: '',
            icon: null,
            icon_type: null,
            font_icon: null,
            count_category: 0,
            count_instruction: 1,
          },
        ]);
        expect(body._meta).toMatchObject({ pageCount: 1, totalCount: 3, currentPage: 1 });
      });

      it('serves the icon of a category at its link', async () => {
        const response = await get(fileRef(icon).link);
        expect(response.statusCode).toBe(200);
        expect(response.rawPayload.equals(PNG)).toBe(true);
      });

      it('answers one page of the visible children of category_parent_id', async () => {
        const response = await get(`/api/knowledge/category?category_parent_id=${setup.id}`);
        expect(response.statusCode).toBe(200);
        const body = response.json<PagedList<Category>>();
        expect(body.items.map((c) => c.id)).toEqual([deep.id]);
        expect(body._meta).toEqual({ pageCount: 1, totalCount: 1, currentPage: 1, perPage: 30 });

        const leaf = (await get(`/api/knowledge/category?category_parent_id=${deeper.id}`)).json();
        expect(leaf).toEqual({
          items: [],
          _meta: { pageCount: 0, totalCount: 0, currentPage: 1, perPage: 30 },
        });
      });

      it('answers the visible top-level categories of section_id', async () => {
        const body = (await get(`/api/knowledge/category?section_id=${guides.id}&page=1`)).json();
        expect(body.items.map((c: Category) => c.id)).toEqual([setup.id]);
        const none = (await get(`/api/knowledge/category?section_id=${hidden.id}`)).json();
        expect(none.items).toEqual([]);
      });

      it('treats query as a marker for the paged form, not as a filter', async () => {
        const body = (await get('/api/knowledge/category?query=1')).json<PagedList<Category>>();
        expect(body.items.map((c) => c.id).sort((a, b) => a - b)).toEqual([setup.id, deep.id, deeper.id]);
        expect(body._meta.perPage).toBe(30);
      });

      it('answers 404 for an unknown or invisible category_parent_id', async () => {
        for (const id of [advanced.id, empty.id, hiddenCategory.id, 999_999]) {
          const error = expectApiError(await get(`/api/knowledge/category?category_parent_id=${id}`), 404);
          expect(error.code).toBe('not_found');
        }
      });
    });

    describe('GET /api/knowledge/instruction', () => {
      it('answers the bundle of published articles, without bodies or files', async () => {
        const response = await get('/api/knowledge/instruction');
        expect(response.statusCode).toBe(200);
        const body = response.json<PagedList<InstructionSummary>>();
        const summary = (a: ArticleRow) => ({
          id: a.id,
          title: a.title,
          lang: 'en',
          section_id: a.section_id,
          category_id: a.category_id,
          can_create_issue: a.can_create_issue === 1,
        });
        expect([...body.items].sort((a, b) => a.id - b.id)).toEqual(
          [install, tuning, welcome, newsNew, newsOld].map(summary).sort((a, b) => a.id - b.id),
        );
        for (const item of body.items) {
          expect(item).not.toHaveProperty('description');
          expect(item).not.toHaveProperty('files');
        }
        expect(body._meta).toMatchObject({ pageCount: 1, totalCount: 5 });
      });

      it('answers one page of full articles of category_id, with their files in order', async () => {
        const response = await get(`/api/knowledge/instruction?query=1&page=1&category_id=${setup.id}`);
        expect(response.statusCode).toBe(200);
        expect(response.json()).toEqual({
          items: [
            {
              id: install.id,
              title: 'Install the app',
              lang: 'en',
              description: '<h2>Steps</h2><p>Run it.</p>',
              section_id: guides.id,
              category_id: setup.id,
              can_create_issue: true,
              files: [fileRef(manual), fileRef(notes)],
              created_at: new Date(install.created_at).toISOString(),
              updated_at: new Date(install.updated_at).toISOString(),
              noindex: false,
            },
          ],
          _meta: { pageCount: 1, totalCount: 1, currentPage: 1, perPage: 100 },
        });
      });

      it('lists only the articles directly in section_id, in order', async () => {
        const ofGuides = (await get(`/api/knowledge/instruction?section_id=${guides.id}`)).json<
          PagedList<Instruction>
        >();
        expect(ofGuides.items.map((a) => a.id)).toEqual([welcome.id]);
        const ofNews = (await get(`/api/knowledge/instruction?section_id=${news.id}`)).json<
          PagedList<Instruction>
        >();
        expect(ofNews.items.map((a) => a.title)).toEqual(['November news', 'October news']);
        expect(ofNews.items[0]).toMatchObject({ description: newsNew.body_html, files: [] });
      });

      it('with only the query marker pages every published article', async () => {
        const body = (await get('/api/knowledge/instruction?query=1')).json<PagedList<Instruction>>();
        expect(body.items.map((a) => a.id).sort((a, b) => a - b)).toEqual(
          [install.id, tuning.id, welcome.id, newsNew.id, newsOld.id].sort((a, b) => a - b),
        );
        expect(body.items.every((a) => typeof a.description === 'string' && Array.isArray(a.files))).toBe(
          true,
        );
        expect(body._meta).toEqual({ pageCount: 1, totalCount: 5, currentPage: 1, perPage: 100 });
      });

      it('answers 404 for an unknown or invisible category_id', async () => {
        for (const id of [advanced.id, empty.id, hiddenCategory.id, 999_999]) {
          expectApiError(await get(`/api/knowledge/instruction?category_id=${id}`), 404);
        }
      });
    });

    describe('GET /api/knowledge/instruction/{id}', () => {
      it('answers a published article with its body and files', async () => {
        const response = await get(`/api/knowledge/instruction/${install.id}`);
        expect(response.statusCode).toBe(200);
        expect(response.json()).toEqual({
          id: install.id,
          title: 'Install the app',
          lang: 'en',
          description: '<h2>Steps</h2><p>Run it.</p>',
          section_id: guides.id,
          category_id: setup.id,
          can_create_issue: true,
          files: [fileRef(manual), fileRef(notes)],
          created_at: new Date(install.created_at).toISOString(),
          updated_at: new Date(install.updated_at).toISOString(),
          noindex: false,
        });
        const plain = (await get(`/api/knowledge/instruction/${welcome.id}`)).json<Instruction>();
        expect(plain).toMatchObject({ category_id: null, can_create_issue: false, files: [] });
      });

      it('answers 404 JSON for an unpublished or unknown article', async () => {
        for (const id of [setupDraft.id, secret.id, 999_999]) {
          const error = expectApiError(await get(`/api/knowledge/instruction/${id}`), 404, []);
          expect(error.code).toBe('not_found');
          expect(error.message).not.toContain('draft');
        }
      });
    });

    describe('bad input', () => {
      const cases: [string, string[]][] = [
        ['/api/knowledge/category?page=abc', ['page']],
        ['/api/knowledge/category?page=-1', ['page']],
        ['/api/knowledge/category?page=0', ['page']],
        ['/api/knowledge/category?page=1.5', ['page']],
        ['/api/knowledge/category?per_page=abc', ['per_page']],
        ['/api/knowledge/category?per_page=-30', ['per_page']],
        ['/api/knowledge/category?per_page=0', ['per_page']],
        ['/api/knowledge/category?per_page=2.5', ['per_page']],
        ['/api/knowledge/category?per_page=101', ['per_page']],
        ['/api/knowledge/category?category_parent_id=abc', ['category_parent_id']],
        ['/api/knowledge/category?category_parent_id=-3', ['category_parent_id']],
        ['/api/knowledge/category?category_parent_id=0', ['category_parent_id']],
        ['/api/knowledge/category?category_parent_id=1.5', ['category_parent_id']],
        ['/api/knowledge/category?section_id=x', ['section_id']],
        [
          '/api/knowledge/category?page=x&per_page=-1&category_parent_id=0',
          ['page', 'per_page', 'category_parent_id'],
        ],
        ['/api/knowledge/instruction?page=abc', ['page']],
        ['/api/knowledge/instruction?page=-2', ['page']],
        ['/api/knowledge/instruction?page=0', ['page']],
        ['/api/knowledge/instruction?page=0.5', ['page']],
        ['/api/knowledge/instruction?per_page=abc', ['per_page']],
        ['/api/knowledge/instruction?per_page=-100', ['per_page']],
        ['/api/knowledge/instruction?per_page=0', ['per_page']],
        ['/api/knowledge/instruction?per_page=501', ['per_page']],
        ['/api/knowledge/instruction?category_id=abc', ['category_id']],
        ['/api/knowledge/instruction?category_id=-1', ['category_id']],
        ['/api/knowledge/instruction?category_id=0', ['category_id']],
        ['/api/knowledge/instruction?category_id=2.5', ['category_id']],
        ['/api/knowledge/instruction?section_id=-1', ['section_id']],
        ['/api/knowledge/instruction/abc', ['id']],
        ['/api/knowledge/instruction/-1', ['id']],
        ['/api/knowledge/instruction/0', ['id']],
        ['/api/knowledge/instruction/1.5', ['id']],
        ['/api/knowledge/instruction/99999999999999', ['id']],
      ];

      it.each(cases)('%s answers 400 naming %j', async (url, fields) => {
        const error = expectApiError(await get(url), 400, fields);
        expect(error.code).toBe('invalid_request');
        for (const field of fields) expect(error.message).toContain(field);
      });
    });
  });

  describe('paging', () => {
    let t: TestApp;
    let parent: CategoryRow;
    let children: CategoryRow[];
    let shelf: CategoryRow;
    let articles: ArticleRow[];
    const CHILDREN = 105;
    const ARTICLES = 130;

    beforeAll(async () => {
      t = await createTestApp(dialect);
      const { db } = t.ctx;
      parent = await buildCategory(db, { name: 'Parent' });
      children = [];
      for (let i = 0; i < CHILDREN; i++) {
        const child = await buildCategory(db, { parent_id: parent.id, position: i });
        await buildArticle(db, { category_id: child.id });
        children.push(child);
      }
      shelf = await buildCategory(db, { name: 'Shelf' });
      articles = [];
      for (let i = 0; i < ARTICLES; i++)
        articles.push(await buildArticle(db, { category_id: shelf.id, position: i }));
    });
    afterAll(async () => t?.close());

    const categoryPage = async (query: string) => {
      const response = await t.app.inject(`/api/knowledge/category?category_parent_id=${parent.id}&${query}`);
      expect(response.statusCode, response.body).toBe(200);
      return response.json<PagedList<Category>>();
    };
    const articlePage = async (query: string) => {
      const response = await t.app.inject(`/api/knowledge/instruction?category_id=${shelf.id}&${query}`);
      expect(response.statusCode, response.body).toBe(200);
      return response.json<PagedList<Instruction>>();
    };
    const ids = (rows: { id: number }[]) => rows.map((r) => r.id);

    it('pages categories 30 at a time by default', async () => {
      const first = await categoryPage('page=1');
      expect(ids(first.items)).toEqual(ids(children.slice(0, 30)));
      expect(first._meta).toEqual({ pageCount: 4, totalCount: CHILDREN, currentPage: 1, perPage: 30 });
      const last = await categoryPage('page=4');
      expect(ids(last.items)).toEqual(ids(children.slice(90)));
    });

    it('takes per_page for categories up to 100', async () => {
      const body = await categoryPage('page=2&per_page=100');
      expect(ids(body.items)).toEqual(ids(children.slice(100)));
      expect(body._meta).toEqual({ pageCount: 2, totalCount: CHILDREN, currentPage: 2, perPage: 100 });
      expectApiError(await t.app.inject(`/api/knowledge/category?per_page=101`), 400, ['per_page']);
    });

    it('answers empty items with the right pageCount past the last category page', async () => {
      const body = await categoryPage('page=5');
      expect(body).toEqual({
        items: [],
        _meta: { pageCount: 4, totalCount: CHILDREN, currentPage: 5, perPage: 30 },
      });
    });

    it('pages articles 100 at a time by default', async () => {
      const first = await articlePage('query=1&page=1');
      expect(ids(first.items)).toEqual(ids(articles.slice(0, 100)));
      expect(first._meta).toEqual({ pageCount: 2, totalCount: ARTICLES, currentPage: 1, perPage: 100 });
      const second = await articlePage('page=2');
      expect(ids(second.items)).toEqual(ids(articles.slice(100)));
    });

    it('takes per_page for articles up to 500', async () => {
      const small = await articlePage('page=3&per_page=7');
      expect(ids(small.items)).toEqual(ids(articles.slice(14, 21)));
      expect(small._meta).toEqual({ pageCount: 19, totalCount: ARTICLES, currentPage: 3, perPage: 7 });
      const all = await articlePage('per_page=500');
      expect(all.items).toHaveLength(ARTICLES);
      expect(all._meta.pageCount).toBe(1);
      expectApiError(await t.app.inject(`/api/knowledge/instruction?per_page=501`), 400, ['per_page']);
    });

    it('answers empty items with the right pageCount past the last article page', async () => {
      const body = await articlePage('page=9&per_page=50');
      expect(body).toEqual({
        items: [],
        _meta: { pageCount: 3, totalCount: ARTICLES, currentPage: 9, perPage: 50 },
      });
    });

    it('keeps the bundles whole however many rows there are', async () => {
      const categories = (await t.app.inject('/api/knowledge/category')).json<PagedList<Category>>();
      expect(categories.items).toHaveLength(CHILDREN + 2);
      expect(categories._meta.pageCount).toBe(1);
      const bundle = (await t.app.inject('/api/knowledge/instruction')).json<PagedList<InstructionSummary>>();
      expect(bundle.items).toHaveLength(CHILDREN + ARTICLES);
      expect(bundle._meta.pageCount).toBe(1);
    });
  });

  describe('what the article page shows around an article (nearby)', () => {
    let t: TestApp;
    let big: SectionRow, small: SectionRow;
    let shelf: CategoryRow, corner: CategoryRow;
    let shelved: ArticleRow[], loose: ArticleRow[], smallOnes: ArticleRow[];
    let draft: ArticleRow, alone: ArticleRow;
    const SHELVED = 30;
    const LOOSE = 25;

    beforeAll(async () => {
      t = await createTestApp(dialect);
      const { db } = t.ctx;
      big = await buildSection(db, { name: 'Big', position: 1 });
      small = await buildSection(db, { name: 'Small', position: 2 });
      shelf = await buildCategory(db, { section_id: big.id, name: 'Shelf', position: 1 });
      shelved = [];
      for (let i = 0; i < SHELVED; i++)
        shelved.push(await buildArticle(db, { category_id: shelf.id, title: `Shelved ${i}`, position: i }));
      loose = [];
      for (let i = 0; i < LOOSE; i++)
        loose.push(await buildArticle(db, { section_id: big.id, title: `Loose ${i}`, position: i }));
      corner = await buildCategory(db, { section_id: small.id, name: 'Corner', position: 1 });
      smallOnes = [
        await buildArticle(db, { category_id: corner.id, title: 'Corner one', position: 1 }),
        await buildArticle(db, { category_id: corner.id, title: 'Corner two', position: 2 }),
        await buildArticle(db, { section_id: small.id, title: 'Small loose', position: 3 }),
      ];
      draft = await buildArticle(db, { category_id: corner.id, title: 'Corner draft', published: 0 });
      // The only article of its category, in the big section (among the others by position, then by id).
      const nook = await buildCategory(db, { section_id: big.id, name: 'Nook', position: 2 });
      alone = await buildArticle(db, { category_id: nook.id, title: 'Alone in the nook', position: 12 });
    });
    afterAll(async () => t?.close());

    const nearby = async (id: number) => {
      const response = await t.app.inject(`/api/knowledge/instruction/${id}/nearby`);
      expect(response.statusCode).toBe(200);
      return response.json<InstructionNearby>();
    };
    const titles = (links: { title: string }[]) => links.map((link) => link.title);
    const range = (prefix: string, from: number, to: number) =>
      Array.from({ length: to - from }, (_, i) => `${prefix} ${from + i}`);

    it("lists a small section's articles whole, with the neighbours in the article's own category", async () => {
      const answer = await nearby(smallOnes[0]!.id);
      // In the bundle's order.
      expect(titles(answer.siblings)).toEqual(['Corner one', 'Corner two', 'Small loose']);
      expect(answer.all).toBeNull();
      expect(answer.previous).toBeNull();
      expect(answer.next).toEqual({ id: smallOnes[1]!.id, title: 'Corner two', lang: 'en' });
      expect((await nearby(smallOnes[2]!.id)).next).toBeNull();
    });

    it('lists, past SIDEBAR_ARTICLES in the section, a window of the category around the article and where all are', async () => {
      const first = await nearby(shelved[0]!.id);
      expect(titles(first.siblings)).toEqual(range('Shelved', 0, SIDEBAR_ARTICLES));
      expect(first.all).toEqual({ total: SHELVED, section_id: big.id, category_id: shelf.id });
      expect(first.previous).toBeNull();
      expect(first.next?.title).toBe('Shelved 1');

      const middle = await nearby(shelved[15]!.id);
      expect(titles(middle.siblings)).toEqual(range('Shelved', 5, 5 + SIDEBAR_ARTICLES));
      expect(middle.previous?.title).toBe('Shelved 14');
      expect(middle.next?.title).toBe('Shelved 16');
      // Related: what its title's words find, less itself and the pager's two.
      expect(middle.related).toHaveLength(RELATED_ARTICLES);
      for (const other of middle.related) {
        // Sharing a word with 'Shelved 15'.
        expect(other.title).toMatch(/^Shelved \d+$|\b15$/);
        expect(['Shelved 14', 'Shelved 15', 'Shelved 16']).not.toContain(other.title);
      }

      const last = await nearby(shelved[SHELVED - 1]!.id);
      expect(titles(last.siblings)).toEqual(range('Shelved', SHELVED - SIDEBAR_ARTICLES, SHELVED));
      expect(last.next).toBeNull();
    });

    it("windows the section's own articles the same way, pointing to the section", async () => {
      const answer = await nearby(loose[12]!.id);
      expect(titles(answer.siblings)).toEqual(range('Loose', 2, 2 + SIDEBAR_ARTICLES));
      expect(answer.all).toEqual({ total: LOOSE, section_id: big.id, category_id: null });
      expect(answer.previous?.title).toBe('Loose 11');
      expect(answer.next?.title).toBe('Loose 13');
    });

    it("lists, for the only article of its category in a big section, the section's articles around it", async () => {
      const answer = await nearby(alone.id);
      const pair = (position: number) => [`Shelved ${position}`, `Loose ${position}`];
      // The section's order (position, then id), the article in the middle of SIDEBAR_ARTICLES.
      expect(titles(answer.siblings)).toEqual([
        ...[8, 9, 10, 11, 12].flatMap(pair),
        'Alone in the nook',
        ...[13, 14, 15, 16].flatMap(pair),
        'Shelved 17',
      ]);
      expect(answer.siblings).toHaveLength(SIDEBAR_ARTICLES);
      // All of them: the section on the home page (its articles and its categories' tiles).
      expect(answer.all).toEqual({ total: SHELVED + LOOSE + 1, section_id: big.id, category_id: null });
      // Nothing before or after it in its category.
      expect(answer.previous).toBeNull();
      expect(answer.next).toBeNull();
    });

    it('answers 404 for a draft or an article that is not there, and 400 naming a bad id or language', async () => {
      expectApiError(await t.app.inject(`/api/knowledge/instruction/${draft.id}/nearby`), 404);
      expectApiError(await t.app.inject('/api/knowledge/instruction/999999/nearby'), 404);
      expectApiError(await t.app.inject('/api/knowledge/instruction/abc/nearby'), 400, ['id']);
      expectApiError(await t.app.inject(`/api/knowledge/instruction/${shelved[0]!.id}/nearby?lang=xx`), 400, [
        'lang',
      ]);
    });
  });

  describe('an empty help centre', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(dialect);
    });
    afterAll(async () => t?.close());

    it('answers empty lists', async () => {
      expect((await t.app.inject('/api/knowledge/all-sections')).json()).toEqual([]);
      for (const url of ['/api/knowledge/category', '/api/knowledge/instruction']) {
        const response = await t.app.inject(url);
        expect(response.statusCode, url).toBe(200);
        expect(response.json(), url).toMatchObject({ items: [], _meta: { pageCount: 0, totalCount: 0 } });
      }
    });
  });
});
