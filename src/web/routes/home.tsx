import { useEffect } from 'react';
import { useLoaderData, type LoaderFunctionArgs } from 'react-router';
import { pageApi } from '../api/api-context.ts';
import { ArticleList } from '../features/knowledge/article-list.tsx';
import { CategoryTile, hasContent } from '../features/knowledge/category-tiles.tsx';
import { shownLang, useI18n } from '../i18n/i18n.tsx';
import { storageKeys, writeItem } from '../lib/storage.ts';
import type { RouteHandle } from './head.ts';
import { absoluteUrl, publisher } from './seo.ts';
import { href } from '../../shared/paths.ts';
import { useRootData } from '../lib/use-root-data.ts';

export async function homeLoader({ context, request }: LoaderFunctionArgs) {
  const bundle = await pageApi(context, request).instructionBundle();
  // Only what the page shows goes into the page (and its hydration data): the articles outside any category, not
  // the thousands inside them.
  return {
    articles: bundle.items
      .filter((article) => article.category_id === null)
      .map(({ id, title, lang, section_id }) => ({ id, title, lang, section_id })),
    anyRequestable: bundle.items.some((article) => article.can_create_issue),
  };
}

type HomeData = Awaited<ReturnType<typeof homeLoader>>;

export const homeHandle: RouteHandle = {
  // The site, and how a search engine may send a query straight to its search page.
  seo: (_data, site) => ({
    path: href.home(),
    jsonLd: [
      {
        '@context': 'https://schema.org',
        '@type': 'WebSite',
        name: site.name,
        url: site.address(href.home()),
        inLanguage: site.lang,
        publisher: publisher(site),
        potentialAction: {
          '@type': 'SearchAction',
          target: {
            '@type': 'EntryPoint',
            urlTemplate: absoluteUrl(site.origin, `${href.search()}?query={search_term_string}`),
          },
          'query-input': 'required name=search_term_string',
        },
      },
    ],
  }),
  hideRequestHint: (data) => (data as HomeData | undefined)?.anyRequestable ?? false,
};

/** Sections with something in them: their category tiles and the articles directly in them. */
export function HomePage() {
  const { t, lang } = useI18n();
  const { sections, categories } = useRootData();
  const { articles } = useLoaderData() as HomeData;

  // The spec clears the visited trail whenever home loads.
  useEffect(() => {
    writeItem(storageKeys.visitedCategories, null);
    writeItem(storageKeys.currentSection, null);
  }, []);

  const bySection = new Map<number, HomeData['articles']>();
  for (const article of articles) {
    const list = bySection.get(article.section_id);
    if (list) list.push(article);
    else bySection.set(article.section_id, [article]);
  }
  const visible = sections
    .map((section) => ({
      section,
      tiles: categories.filter((c) => c.section_id === section.id && c.parent_id === null && hasContent(c)),
      articles: bySection.get(section.id) ?? [],
    }))
    .filter((entry) => entry.tiles.length > 0 || entry.articles.length > 0);

  if (visible.length === 0) {
    return <p className="empty-state">{t('emptyKnowledgeBase')}</p>;
  }
  return (
    <div className="home">
      {visible.map(({ section, tiles, articles: sectionArticles }) => (
        <section key={section.id} className="home-section" aria-labelledby={`section-${section.id}`}>
          <h2 id={`section-${section.id}`} lang={shownLang(section.lang, lang)}>
            {section.name}
          </h2>
          {tiles.length > 0 && (
            <ul className="tiles">
              {tiles.map((category) => (
                <CategoryTile key={category.id} category={category} />
              ))}
            </ul>
          )}
          {sectionArticles.length > 0 && <ArticleList articles={sectionArticles} />}
        </section>
      ))}
    </div>
  );
}
