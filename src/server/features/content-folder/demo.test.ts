import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Category, Instruction, InstructionSummary, Section } from '../../../shared/api/knowledge.ts';
import { createTestApp, testDialects, type TestApp } from '../../testing/test-context.ts';
import { seedDemo } from './demo.service.ts';
import type { ImportSummary } from './import-folder.ts';

/** The demo is what a new install shows; it has to exercise every screen and rule of the specification. */
describe.each(testDialects())('the demo help centre on %s', (dialect) => {
  let t: TestApp;
  let sections: Section[];
  let categories: Category[];
  let articles: InstructionSummary[];
  let summary: ImportSummary;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    summary = await seedDemo(t.ctx);
    sections = (await t.app.inject('/api/knowledge/all-sections')).json();
    categories = (await t.app.inject('/api/knowledge/category')).json().items;
    articles = (await t.app.inject('/api/knowledge/instruction')).json().items;
  });
  afterAll(async () => t?.close());

  const depth = (category: Category): number => {
    const parent = categories.find((c) => c.id === category.parent_id);
    return parent ? depth(parent) + 1 : 1;
  };

  it('has at least 3 visible sections and 40 published articles', () => {
    expect(sections.length).toBeGreaterThanOrEqual(3);
    expect(articles.length).toBeGreaterThanOrEqual(40);
  });

  it('nests categories three deep', () => {
    expect(Math.max(...categories.map(depth))).toBeGreaterThanOrEqual(3);
  });

  it('has a chain of categories that each hold a single category (the auto-redirect case)', () => {
    const chain = sections.find((s) => {
      if (s.count_category !== 1 || s.count_instruction !== 0) return false;
      let current = categories.find((c) => c.section_id === s.id && c.parent_id === null);
      let links = 0;
      while (current && current.count_category === 1 && current.count_instruction === 0) {
        links++;
        current = categories.find((c) => c.parent_id === current?.id);
      }
      return links >= 2 && current !== undefined && current.count_instruction > 0;
    });
    expect(chain).toBeDefined();
  });

  it('has a section with articles but no categories', () => {
    expect(sections.some((s) => s.count_category === 0 && s.count_instruction > 0)).toBe(true);
  });

  it('has a section with nothing visible, which the public never sees', async () => {
    const all = await t.ctx.db.selectFrom('sections').select(['id', 'name']).execute();
    const hidden = all.filter((s) => !sections.some((v) => v.id === s.id));
    expect(hidden.length).toBeGreaterThanOrEqual(1);
    const drafts = await t.ctx.db
      .selectFrom('articles')
      .select('section_id')
      .where('published', '=', 0)
      .execute();
    expect(hidden.every((s) => drafts.some((d) => d.section_id === s.id))).toBe(true);
  });

  it('has articles with files, rich HTML bodies and the request form', async () => {
    expect(articles.filter((a) => a.can_create_issue).length).toBeGreaterThanOrEqual(3);
    const full: Instruction[] = [];
    for (const { id } of articles) full.push((await t.app.inject(`/api/knowledge/instruction/${id}`)).json());
    expect(full.filter((a) => a.files.length > 0).length).toBeGreaterThanOrEqual(3);
    const html = full.map((a) => a.description).join('\n');
    for (const tag of ['<h2', '<ul>', '<ol>', '<table>', '<img ', '<pre><code', '<a href="http']) {
      expect(html, tag).toContain(tag);
    }
    for (const file of full.flatMap((a) => a.files)) {
      const download = await t.app.inject(file.link);
      expect(download.statusCode, file.link).toBe(200);
      expect(Number(download.headers['content-length'])).toBe(file.file_size);
    }
    for (const src of new Set(
      [...html.matchAll(/<img src="(\/files\/[^"]+)"/g)].map((m) => m[1] as string),
    )) {
      const image = await t.app.inject(src);
      expect(image.statusCode, src).toBe(200);
      expect(image.headers['content-type'], src).toMatch(/^image\//);
    }
  });

  it('shows its first steps in Russian and its welcome in Portuguese, the rest in English, marked', async () => {
    expect(summary.warnings).toEqual([]);
    expect(summary.translations.created).toBeGreaterThanOrEqual(6);
    const ru = (await t.app.inject('/api/knowledge/all-sections?lang=ru')).json<Section[]>();
    expect(ru.find((s) => s.lang === 'ru')?.name).toBe('Начало работы');
    expect(ru.filter((s) => s.lang === 'en').length).toBe(ru.length - 1);
    const titles = (await t.app.inject('/api/knowledge/instruction?lang=ru'))
      .json<{ items: InstructionSummary[] }>()
      .items.filter((a) => a.lang === 'ru')
      .map((a) => a.title);
    expect(titles).toEqual(expect.arrayContaining(['Добро пожаловать в Lumo', 'Установка приложения Lumo']));
    const pt = (await t.app.inject('/api/knowledge/instruction?lang=pt-BR'))
      .json<{ items: InstructionSummary[] }>()
      .items.filter((a) => a.lang === 'pt-BR');
    expect(pt.map((a) => a.title)).toEqual(['Boas-vindas à Lumo']);
    // Same articles in every language: a translation adds a version, never an article.
    expect((await t.app.inject('/api/knowledge/instruction?lang=ru')).json().items).toHaveLength(
      articles.length,
    );
  });
});
