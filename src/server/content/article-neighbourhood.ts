import { RELATED_ARTICLES, SIDEBAR_ARTICLES } from '../../shared/constants.ts';
import type { ArticleLink, InstructionNearby, InstructionSummary } from '../../shared/api/knowledge.ts';

const link = ({ id, title, lang }: ArticleLink): ArticleLink => ({ id, title, lang });

/**
 * What the article page shows around `article` among the articles a reader gets (the bundle, in its order): the
 * sidebar's list (its section's articles, or past SIDEBAR_ARTICLES a window of those in its own place with `all`
 * saying how many and where) and the previous and next articles in its place (its category, or the section's
 * articles outside any). An article alone in its place gets the window of its section instead, pointing to the
 * section: a list of itself alone would say nothing.
 */
export function articleNeighbourhood(
  items: readonly InstructionSummary[],
  article: InstructionSummary,
): Omit<InstructionNearby, 'related'> {
  const inSection = items.filter((item) => item.section_id === article.section_id);
  const inPlace = inSection.filter((item) => item.category_id === article.category_id);
  const at = inPlace.findIndex((item) => item.id === article.id);
  const previous = at > 0 ? link(inPlace[at - 1]!) : null;
  const next = at >= 0 && inPlace[at + 1] ? link(inPlace[at + 1]!) : null;
  if (inSection.length <= SIDEBAR_ARTICLES) return { siblings: inSection.map(link), all: null, previous, next };
  const [listed, categoryId] = inPlace.length > 1 ? [inPlace, article.category_id] : [inSection, null];
  const where = listed.findIndex((item) => item.id === article.id);
  // A window of the list with the article in the middle, moved in from either end.
  const start = Math.max(0, Math.min(where - Math.floor(SIDEBAR_ARTICLES / 2), listed.length - SIDEBAR_ARTICLES));
  return {
    siblings: listed.slice(start, start + SIDEBAR_ARTICLES).map(link),
    all: { total: listed.length, section_id: article.section_id, category_id: categoryId },
    previous,
    next,
  };
}

/** Articles a title's words find for a reader, and whether the search index had caught up with the content. */
export type FindRelated = (title: string, limit: number) => Promise<{ items: ArticleLink[]; fresh: boolean }>;

/**
 * The article page's related articles: the first RELATED_ARTICLES that `findRelated` gives for its title, other than
 * the article itself and the pager's previous and next (already linked beside them).
 */
export async function relatedAround(
  article: InstructionSummary,
  around: Pick<InstructionNearby, 'previous' | 'next'>,
  findRelated: FindRelated,
): Promise<{ related: ArticleLink[]; fresh: boolean }> {
  const shown = new Set([article.id, around.previous?.id, around.next?.id]);
  // A few more than shown, as the three above may be among them.
  const found = await findRelated(article.title, RELATED_ARTICLES + shown.size);
  const related = found.items
    .filter((other) => !shown.has(other.id))
    .slice(0, RELATED_ARTICLES)
    .map(link);
  return { related, fresh: found.fresh };
}
