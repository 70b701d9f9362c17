import { useCallback, useEffect } from 'react';
import { href } from '../../shared/paths.ts';
import { data, redirect, useLoaderData, type LoaderFunctionArgs } from 'react-router';
import { ARTICLE_PAGE_SIZE, CATEGORY_PAGE_SIZE } from '../../shared/constants.ts';
import { ApiRequestError } from '../api/client.ts';
import { apiFrom, pageApi } from '../api/api-context.ts';
import { pageLanguageOf, withLang } from '../../shared/page-language.ts';
import { HtmlContent } from '../components/html-content.tsx';
import type { PagedList } from '../../shared/api/common.ts';
import type { Category, Instruction } from '../../shared/api/knowledge.ts';
import { ArticleItem, type ArticleLink } from '../features/knowledge/article-list.tsx';
import { CategoryTile } from '../features/knowledge/category-tiles.tsx';
import { InfiniteList } from '../features/knowledge/infinite-list.tsx';
import { Trail } from '../features/knowledge/trail.tsx';
import {
  hasSignInPrompt,
  isSignInRequired,
  SignInPrompt,
  type SignInRequired,
} from '../features/knowledge/sign-in-prompt.tsx';
import { shownLang, useI18n } from '../i18n/i18n.tsx';
import { readJson, storageKeys, writeItem } from '../lib/storage.ts';
import { autoRedirectEnd } from '../lib/auto-redirect.ts';
import { computeTrail, visitCategory } from '../lib/trail.ts';
import { describe, parseId } from '../lib/text.ts';
import type { RouteHandle } from './head.ts';
import { breadcrumbList } from './seo.ts';
import { useRootData } from '../lib/use-root-data.ts';

const notFound = () => data(null, { status: 404 });

/** The list shows titles; dropping the bodies keeps the page (and its hydration data) small. */
const titlesOnly = (list: PagedList<Instruction>): PagedList<ArticleLink> => ({
  ...list,
  items: list.items.map(({ id, title, lang }) => ({ id, title, lang })),
});

export async function categoryLoader({ params, context, request }: LoaderFunctionArgs) {
  const id = parseId(params.id);
  if (id === null) throw notFound();
  const api = pageApi(context, request);
  const lang = pageLanguageOf(new URL(request.url).search);
  const [sections, { items: categories }] = await Promise.all([api.sections(), api.categories()]);
  const category = categories.find((c) => c.id === id);
  if (!category) {
    // Not among those this visitor sees: one for signed-in visitors gets a prompt to sign in (401), else not found.
    const refused = await api
      .categories({ category_parent_id: id, page: 1, per_page: 1 })
      .then(() => false, isSignInRequired);
    if (refused) return data<SignInRequired>({ signInRequired: true }, { status: 401 });
    throw notFound();
  }

  const end = autoRedirectEnd(
    category,
    sections.find((s) => s.id === category.section_id),
    categories,
  );
  if (end && end.count_category === 0 && end.count_instruction === 1) {
    const only = await api.instructions({ category_id: end.id, page: 1, per_page: 1 });
    if (only.items[0]) throw redirect(withLang(href.instruction(only.items[0].id), lang));
  }
  if (end && end.id !== category.id) throw redirect(withLang(href.category(end.id), lang));

  try {
    const [children, articles] = await Promise.all([
      api.categories({ category_parent_id: id, page: 1, per_page: CATEGORY_PAGE_SIZE }),
      api.instructions({ category_id: id, page: 1, per_page: ARTICLE_PAGE_SIZE }),
    ]);
    const trail = computeTrail({ sections, categories }, { categoryId: id, sectionId: category.section_id });
    return { category, children, articles: titlesOnly(articles), trail };
  } catch (error) {
    if (error instanceof ApiRequestError && error.status === 404) throw notFound();
    throw error;
  }
}

interface CategoryData {
  category: Category;
  children: PagedList<Category>;
  articles: PagedList<ArticleLink>;
  trail: ReturnType<typeof computeTrail>;
}

export const categoryHandle: RouteHandle = {
  seo: (loaded, site) => {
    const { trail, category } = (loaded as Partial<CategoryData> | undefined) ?? {};
    return trail && category
      ? { path: href.category(category.id), jsonLd: [breadcrumbList(site, trail)] }
      : {};
  },
  head: (loaded, t) => {
    if (hasSignInPrompt(loaded)) return { title: t('signInToReadTitle') };
    const category = (loaded as CategoryData | undefined)?.category;
    return category ? { title: category.name, description: describe(category.description) } : {};
  },
};

export function CategoryPage() {
  const loaded = useLoaderData() as CategoryData | SignInRequired;
  return hasSignInPrompt(loaded) ? <SignInPrompt /> : <CategoryContent {...loaded} />;
}

function CategoryContent({ category, children, articles, trail }: CategoryData) {
  const { t, lang, pageLang } = useI18n();
  const { categories } = useRootData();

  useEffect(() => {
    const visited = readJson<number[]>(storageKeys.visitedCategories, []);
    writeItem(storageKeys.visitedCategories, JSON.stringify(visitCategory(visited, category.id, categories)));
    writeItem(storageKeys.currentSection, String(category.section_id));
  }, [category.id, category.section_id, categories]);

  const api = apiFrom(undefined).in(pageLang);
  const loadChildren = useCallback(
    (page: number) => api.categories({ category_parent_id: category.id, page, per_page: CATEGORY_PAGE_SIZE }),
    [api, category.id],
  );
  const loadArticles = useCallback(
    async (page: number) =>
      titlesOnly(await api.instructions({ category_id: category.id, page, per_page: ARTICLE_PAGE_SIZE })),
    [api, category.id],
  );

  return (
    <article className="category-page">
      <Trail steps={trail} />
      <h1 lang={shownLang(category.lang, lang)}>{category.name}</h1>
      {category.description && (
        <HtmlContent
          html={category.description}
          className="rich-text category-description"
          lang={shownLang(category.lang, lang)}
        />
      )}
      {children.items.length > 0 && (
        <InfiniteList
          key={`c${category.id}`}
          first={children}
          loadPage={loadChildren}
          className="scroll-box categories-box"
          listClassName="tiles"
          label={t('categories')}
          renderItem={(child) => <CategoryTile key={child.id} category={child} />}
        />
      )}
      {articles.items.length > 0 && (
        <InfiniteList
          key={`a${category.id}`}
          first={articles}
          loadPage={loadArticles}
          className="scroll-box articles-box"
          listClassName="article-list"
          label={t('articles')}
          renderItem={(article) => <ArticleItem key={article.id} article={article} />}
        />
      )}
    </article>
  );
}
