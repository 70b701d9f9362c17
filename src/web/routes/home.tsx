import { useEffect } from 'react';
import { useLoaderData, type LoaderFunctionArgs } from 'react-router';
import type { InstructionSummary } from '../../shared/api/knowledge.ts';
import { pageApi } from '../api/api-context.ts';
import { ArticleList } from '../features/knowledge/article-list.tsx';
import { CategoryTile, hasContent } from '../features/knowledge/category-tiles.tsx';
import { shownLang, useI18n } from '../i18n/i18n.tsx';
import { storageKeys, writeItem } from '../lib/storage.ts';
import type { RouteHandle } from './head.ts';
import { absoluteUrl, publisher } from './seo.ts';
import { href } from '../../shared/paths.ts';
import { useRootData } from './root-data.ts';

export async function homeLoader({ context, request }: LoaderFunctionArgs) {
  const bundle = await pageApi(context, request).instructionBundle();
  return { articles: bundle.items };
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
  hideRequestHint: (data) =>
    (data as HomeData | undefined)?.articles.some((a) => a.can_create_issue) ?? false,
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

  const bySection = new Map<number, InstructionSummary[]>();
  for (const article of articles) {
    if (article.category_id !== null) continue;
    bySection.set(article.section_id, [...(bySection.get(article.section_id) ?? []), article]);
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
