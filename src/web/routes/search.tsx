import { useEffect } from 'react';
import { href } from '../../shared/paths.ts';
import { Link, useLoaderData, useNavigate, type LoaderFunctionArgs } from 'react-router';
import { reportSearch } from '../features/search/search-events.ts';
import type { Suggestion } from '../../shared/api/search.ts';
import { SEARCH_TEXT_MAX, SUGGESTIONS_LIMIT_MAX } from '../../shared/constants.ts';
import { apiFrom } from '../api/api-context.ts';
import { readItem, storageKeys } from '../lib/storage.ts';
import { useI18n } from '../i18n/i18n.tsx';
import type { RouteHandle } from './head.ts';
import { usePortalLinks, useRootData } from './root-data.ts';

export async function searchLoader({ request, context }: LoaderFunctionArgs) {
  // Control characters separate nothing a person searches for, and the API refuses NUL: they count as spaces.
  const query = (new URL(request.url).searchParams.get('query') ?? '')
    // eslint-disable-next-line no-control-regex -- the control characters are what is replaced
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .trim()
    .slice(0, SEARCH_TEXT_MAX);
  if (!query) return { query, results: [] as Suggestion[] };
  const { items } = await apiFrom(context).suggestions(query, SUGGESTIONS_LIMIT_MAX);
  return { query, results: items };
}

type SearchData = Awaited<ReturnType<typeof searchLoader>>;

export const searchHandle: RouteHandle = {
  noindex: true,
  head: (loaded, t) => {
    const query = (loaded as SearchData | undefined)?.query;
    return { title: query ? t('searchResultsFor', { query }) : t('searchResults') };
  },
};

interface Group {
  key: string;
  heading: string;
  items: Suggestion[];
}

/** Results grouped by category, or by section for articles outside any category, in the order found. */
export function groupResults(
  results: Suggestion[],
  names: { categories: Map<number, string>; sections: Map<number, string> },
): Group[] {
  const groups = new Map<string, Group>();
  for (const result of results) {
    const key = result.category_id !== null ? `c${result.category_id}` : `s${result.section_id}`;
    const heading =
      (result.category_id !== null
        ? names.categories.get(result.category_id)
        : names.sections.get(result.section_id)) ?? '';
    const group = groups.get(key) ?? { key, heading, items: [] };
    group.items.push(result);
    groups.set(key, group);
  }
  return [...groups.values()];
}

export function SearchPage() {
  const { t } = useI18n();
  const { sections, categories } = useRootData();
  const portal = usePortalLinks();
  const { query, results } = useLoaderData() as SearchData;

  // Each search the visitor sees counts once in the team's report, found or not.
  useEffect(() => {
    if (query) reportSearch({ type: 'search', query, found: results.length });
  }, [query, results]);

  // Visiting /search without a query restores the stored one (the specification), with its results.
  const navigate = useNavigate();
  useEffect(() => {
    const stored = query ? '' : (readItem(storageKeys.query) ?? '').trim();
    if (stored) void navigate(href.search(stored.slice(0, SEARCH_TEXT_MAX)), { replace: true });
  }, [query, navigate]);

  if (!query) {
    return (
      <section className="search-page">
        <h1>{t('searchResults')}</h1>
        <p className="search-prompt">{t('enterRequest')}</p>
      </section>
    );
  }
  if (results.length === 0) {
    return (
      <section className="search-page no-results">
        <h1>{t('noResultsTitle')}</h1>
        {/* The spec's text invites a request: without a way to make one here, it only says to search again. */}
        <p>{portal.createIssue ? t('noResultsText') : t('noResultsTextNoPortal')}</p>
        {portal.createIssue && (
          <a className="button" href={portal.createIssue}>
            {t('makeRequest')}
          </a>
        )}
      </section>
    );
  }
  const groups = groupResults(results, {
    categories: new Map(categories.map((c) => [c.id, c.name])),
    sections: new Map(sections.map((s) => [s.id, s.name])),
  });
  return (
    <section className="search-page">
      <h1>{t('searchResultsFor', { query })}</h1>
      {groups.map((group) => (
        <section key={group.key} className="search-group" aria-labelledby={`group-${group.key}`}>
          <h2 id={`group-${group.key}`}>
            {group.key.startsWith('c') ? (
              <Link to={href.category(Number(group.key.slice(1)))}>{group.heading}</Link>
            ) : (
              group.heading
            )}
          </h2>
          <ul className="article-list search-results">
            {group.items.map((item) => (
              <li key={item.id} className="article-item">
                <Link
                  to={href.instruction(item.id)}
                  onClick={() => reportSearch({ type: 'open', query, id: item.id })}
                >
                  {item.title}
                </Link>
                {/* The server escapes the snippet and marks only the matched words. */}
                {item.snippet && <p className="snippet" dangerouslySetInnerHTML={{ __html: item.snippet }} />}
              </li>
            ))}
          </ul>
        </section>
      ))}
    </section>
  );
}
