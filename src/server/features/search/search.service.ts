import type { Suggestion } from '../../../shared/api/search.ts';
import type { Language } from '../../../shared/constants.ts';
import type { Executor } from '../../db/database.ts';
import { getBranding } from '../settings/branding.service.ts';
import { readSetting } from '../settings/settings.repository.ts';
import { SearchIndex, type SearchDocument } from './search-index.ts';
import { htmlToText } from './text.ts';

/** Published articles as the index reads them, each in its own language or the help centre's. */
export async function loadSearchDocuments(db: Executor): Promise<SearchDocument[]> {
  const [{ lang }, rows] = await Promise.all([
    getBranding(db),
    db
      .selectFrom('articles')
      .innerJoin('sections', 'sections.id', 'articles.section_id')
      .leftJoin('categories', 'categories.id', 'articles.category_id')
      .select([
        'articles.id',
        'articles.title',
        'articles.body_html',
        'articles.lang',
        'articles.category_id',
        'articles.section_id',
        'sections.name as section',
        'categories.name as category',
      ])
      .where('articles.published', '=', 1)
      .orderBy('articles.id')
      .execute(),
  ]);
  return rows.map((row) => ({
    id: row.id,
    title: row.title,
    text: htmlToText(row.body_html),
    category: row.category ?? '',
    section: row.section,
    lang: (row.lang ?? lang) as Language,
    category_id: row.category_id,
    section_id: row.section_id,
  }));
}

/**
 * Keeps one index per server in step with the content: every content change bumps `content_revision` in the
 * database, and a search (or the server's watcher) that sees a new revision rebuilds the index first. So a change
 * made through any server is searchable on all of them.
 */
const ANSWER_CACHE_SIZE = 10_000;

export function createSearchService(db: Executor) {
  let index: SearchIndex | null = null;
  let revision: unknown = undefined;
  let building: Promise<SearchIndex> | null = null;

  const rebuild = async (seen: unknown) => {
    building ??= loadSearchDocuments(db)
      .then((documents) => SearchIndex.build(documents))
      .then((built) => {
        index = built;
        revision = seen;
        return built;
      })
      .finally(() => {
        building = null;
      });
    return building;
  };

  const current = async (): Promise<SearchIndex> => {
    const seen = await readSetting<number>(db, 'content_revision');
    if (index && seen === revision) return index;
    return rebuild(seen);
  };

  // Visitors repeat each other (an incident sends many to the same words) and retype the same prefixes: answers
  // are kept per index, so a repeated query costs a map lookup. A new index starts with an empty cache.
  let answers = new Map<string, Suggestion[]>();
  let answersFor: SearchIndex | null = null;

  return {
    async suggest(text: string, limit: number): Promise<Suggestion[]> {
      const searchIndex = await current();
      if (answersFor !== searchIndex) {
        answers = new Map();
        answersFor = searchIndex;
      }
      const key = `${limit}\u0000${text}`;
      const known = answers.get(key);
      if (known) return known;
      const hits = searchIndex.search(text, limit).map(({ id, title, category_id, section_id, snippet }) => ({
        id,
        title,
        category_id,
        section_id,
        snippet,
      }));
      if (answers.size >= ANSWER_CACHE_SIZE) answers.delete(answers.keys().next().value as string);
      answers.set(key, hits);
      return hits;
    },
    /** Builds or refreshes the index in the background; servers call it at start and every second. */
    refresh: () => current().then(() => undefined),
    get size() {
      return index?.size ?? 0;
    },
  };
}

export type SearchService = ReturnType<typeof createSearchService>;
