import type { FastifyInstance } from 'fastify';
import type { ArticlePreviewBody } from '../../../shared/api/admin.ts';
import type {
  Category,
  Instruction,
  InstructionNearby,
  InstructionSummary,
  Section,
} from '../../../shared/api/knowledge.ts';
import {
  articleNeighbourhood,
  relatedAround,
  type FindRelated,
} from '../../content/article-neighbourhood.ts';
import type { PagedList } from '../../../shared/api/common.ts';
import { apiPaths, href } from '../../../shared/paths.ts';
import type { Executor } from '../../db/database.ts';
import type { CategoryRow } from '../../db/tables.ts';
import { ApiError } from '../../http/errors.ts';
import { listAllCategories } from '../../content/content.repository.ts';
import { presentFile } from '../../files/file-ref.ts';
import { htmlDocument, renderPage } from '../../render/render-page.ts';
import type { CallAnswer } from '../../render/page-calls.ts';
import type { WebAssets } from '../../render/web-assets.ts';
import { cleanHtml } from '../../html/clean-html.ts';
import { requireContentFiles, requireSection } from '../../content/content-rules.ts';
import { resolveContainer } from '../../content/placement.ts';
import { siteLanguage } from '../../languages/index.ts';
import type { Language } from '../../../shared/constants.ts';

/** The id an article not saved yet stands in with: a valid page id no row will reach soon. */
const UNSAVED_ID = 999_999_999;

/**
 * The public page of an article as it would be once published with these values, as a whole HTML document without
 * scripts: the same routes, components and calls as the public site, with this article answered in place of the
 * stored one and its section and categories shown even while nothing published makes them visible. Its body is
 * cleaned as a save would clean it. Nothing is stored.
 */
export async function renderArticlePreview(
  app: FastifyInstance,
  db: Executor,
  assets: WebAssets,
  body: ArticlePreviewBody,
  /** The search the nearby call asks for related articles (an anonymous reader's, in the site's language). */
  findRelated: FindRelated,
): Promise<string> {
  const section = await requireSection(db, body.section_id);
  const place = await resolveContainer(
    db,
    { sectionId: section.id, categoryId: null },
    section.id,
    body.category_id,
    'category_id',
  );
  const [files, description, categories, lang] = await Promise.all([
    requireContentFiles(db, body.file_ids, 'file_ids'),
    cleanHtml(body.body_html, 'body_html'),
    listAllCategories(db),
    siteLanguage(db),
  ]);
  const id = body.article_id ?? UNSAVED_ID;
  const summary: InstructionSummary = {
    id,
    title: body.title.trim() || 'Untitled article',
    lang,
    section_id: place.sectionId,
    category_id: place.categoryId,
    can_create_issue: body.can_create_issue,
  };
  const now = new Date().toISOString();
  const instruction: Instruction = {
    ...summary,
    description,
    files: files.map(presentFile),
    created_at: now,
    updated_at: now,
    noindex: false,
  };
  const chain = categoryChain(categories, place.categoryId);

  const nearbyPath = apiPaths.instructionNearby.replace(':id', String(id));
  // Read as anyone reads the article's page, in the site's language.
  const readers = await app.readers.pageReadersOf(undefined, null);
  const { page } = await renderPage(app, href.instruction(id), {
    readers,
    override: async (path, answer): Promise<CallAnswer> => {
      if (path === href.instructionApi(id)) return { status: 200, body: instruction };
      // Around it as it would be once published: placed among what visitors read, unsaved changes included.
      if (path === nearbyPath)
        return { status: 200, body: await previewNearby(app, summary, answer, findRelated) };
      const answered = await answer();
      if (answered.status !== 200) return answered;
      if (path === apiPaths.instructions) {
        const list = answered.body as PagedList<InstructionSummary>;
        const at = list.items.findIndex((item) => item.id === id);
        const items = [...list.items];
        if (at === -1) items.push(summary);
        else items[at] = summary;
        return { status: 200, body: { ...list, items } };
      }
      if (path === apiPaths.categories) {
        const list = answered.body as PagedList<Category>;
        const shown = new Set(list.items.map((category) => category.id));
        const hidden = chain
          .filter((category) => !shown.has(category.id))
          .map((category) => presentHidden(category, lang));
        return { status: 200, body: { ...list, items: [...list.items, ...hidden] } };
      }
      if (path === apiPaths.sections) {
        const sections = answered.body as Section[];
        if (sections.some((shown) => shown.id === section.id)) return answered;
        const hidden: Section = {
          id: section.id,
          name: section.name,
          lang,
          count_category: 0,
          count_instruction: 0,
        };
        return { status: 200, body: [...sections, hidden] };
      }
      return answered;
    },
  });
  if (page.kind !== 'page')
    throw new ApiError(
      409,
      'knowledge_disabled',
      'The help centre is turned off, so it has no public page to show',
    );
  // The frame runs no scripts; the document names none and does not hydrate. Links open outside the admin app.
  // Nobody's to index or share: no canonical link, no structured data.
  return htmlDocument(
    { ...page, seo: null, head: { ...page.head, noindex: true } },
    { ...assets, script: null, preloads: [] },
    '<base target="_blank">',
    { hydrate: false },
  );
}

/**
 * The sidebar, pager and related articles of an article placed among the published ones: the related ones are the
 * stored article's when it has them, else what the nearby call's search finds for the title.
 */
async function previewNearby(
  app: FastifyInstance,
  summary: InstructionSummary,
  answer: () => Promise<CallAnswer>,
  findRelated: FindRelated,
): Promise<InstructionNearby> {
  const bundle = (await app.inject({ url: apiPaths.instructions })).json<PagedList<InstructionSummary>>();
  const items = bundle.items.some((item) => item.id === summary.id)
    ? bundle.items.map((item) => (item.id === summary.id ? summary : item))
    : [...bundle.items, summary];
  const around = articleNeighbourhood(items, summary);
  const stored = await answer();
  if (stored.status === 200) return { ...around, related: (stored.body as InstructionNearby).related };
  const { related } = await relatedAround(summary, around, findRelated);
  return { ...around, related };
}

/** The category and those above it, nearest first. Parent links are followed at most once each. */
function categoryChain(categories: CategoryRow[], id: number | null): CategoryRow[] {
  const byId = new Map(categories.map((category) => [category.id, category]));
  const chain: CategoryRow[] = [];
  for (let next = id === null ? undefined : byId.get(id); next && !chain.includes(next);) {
    chain.push(next);
    next = next.parent_id === null ? undefined : byId.get(next.parent_id);
  }
  return chain;
}

/** A category visitors cannot see yet, as the trail needs it. */
const presentHidden = (category: CategoryRow, lang: Language): Category => ({
  id: category.id,
  name: category.name,
  lang,
  section_id: category.section_id,
  parent_id: category.parent_id,
  description: category.description,
  icon: null,
  icon_type: category.icon_type,
  font_icon: category.font_icon,
  count_instruction: 0,
  count_category: 0,
});
