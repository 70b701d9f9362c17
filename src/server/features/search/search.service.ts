import type { Suggestion } from '../../../shared/api/search.ts';
import type { Executor } from '../../db/database.ts';
import { htmlToText, tokenize } from './text.ts';

/**
 * A plain, correct search: every word of the query must appear in the title or the body (the last word may be
 * the start of a word); titles rank above bodies. It reads the published articles on each call; the in-process
 * index replaces it.
 */
export async function suggest(db: Executor, text: string, limit: number): Promise<Suggestion[]> {
  const words = tokenize(text);
  if (words.length === 0) return [];
  const articles = await db
    .selectFrom('articles')
    .select(['id', 'title', 'body_html', 'category_id', 'section_id', 'position'])
    .where('published', '=', 1)
    .execute();

  const matches = (haystack: string[], word: string, isLast: boolean) =>
    haystack.some((token) => (isLast ? token.startsWith(word) : token === word || token.startsWith(word)));

  const scored = articles.flatMap((article) => {
    const title = tokenize(article.title);
    const body = tokenize(htmlToText(article.body_html));
    let titleHits = 0;
    for (const [index, word] of words.entries()) {
      const isLast = index === words.length - 1;
      const inTitle = matches(title, word, isLast);
      if (!inTitle && !matches(body, word, isLast)) return [];
      if (inTitle) titleHits++;
    }
    return [{ article, score: titleHits }];
  });
  scored.sort(
    (a, b) => b.score - a.score || a.article.position - b.article.position || a.article.id - b.article.id,
  );
  return scored.slice(0, limit).map(({ article }) => ({
    id: article.id,
    title: article.title,
    category_id: article.category_id,
    section_id: article.section_id,
  }));
}
