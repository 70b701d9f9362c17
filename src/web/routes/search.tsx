import { useEffect, useLayoutEffect, useRef } from 'react';
import { href } from '../../shared/paths.ts';
import {
  Link,
  useLoaderData,
  useNavigate,
  useSearchParams,
  type LoaderFunctionArgs,
  type ShouldRevalidateFunctionArgs,
} from 'react-router';
import { ResultSnippet } from '../features/search/result-snippet.tsx';
import { reportSearch } from '../features/search/search-events.ts';
import { readPage, SEARCH_PAGE_SIZE, visibleGroups } from '../features/search/search-results.ts';
import type { Suggestion } from '../../shared/api/search.ts';
import { SEARCH_TEXT_MAX, SUGGESTIONS_LIMIT_MAX } from '../../shared/constants.ts';
import { pageApi } from '../api/api-context.ts';
import { readItem, storageKeys } from '../lib/storage.ts';
import { shownLang, useI18n } from '../i18n/i18n.tsx';
import type { Language } from '../../shared/constants.ts';
import { withLang } from '../../shared/page-language.ts';
import type { RouteHandle } from './head.ts';
import { usePortalLinks, useRootData } from '../lib/use-root-data.ts';

export async function searchLoader({ request, context }: LoaderFunctionArgs) {
  // Control characters separate nothing a person searches for, and the API refuses NUL: they count as spaces.
  const query = (new URL(request.url).searchParams.get('query') ?? '')
    // eslint-disable-next-line no-control-regex -- the control characters are what is replaced
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .trim()
    .slice(0, SEARCH_TEXT_MAX);
  if (!query) return { query, results: [] as Suggestion[] };
  const { items } = await pageApi(context, request).suggestions(query, SUGGESTIONS_LIMIT_MAX);
  return { query, results: items };
}

type SearchData = Awaited<ReturnType<typeof searchLoader>>;

/** "Show more" changes only `page`: the results are those already loaded, so the call is not made again. */
export function shouldSearchRevalidate({
  currentUrl,
  nextUrl,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  const sameQuery =
    currentUrl.pathname === nextUrl.pathname &&
    currentUrl.searchParams.get('query') === nextUrl.searchParams.get('query') &&
    currentUrl.searchParams.get('page') !== nextUrl.searchParams.get('page');
  return sameQuery ? false : defaultShouldRevalidate;
}

/** The address of the first `page` pages; the fragment leads a browser without JavaScript to the first new one. */
const pageHref = (query: string, page: number, lang: Language | null) =>
  withLang(`${href.search(query)}&page=${page}#result-${(page - 1) * SEARCH_PAGE_SIZE + 1}`, lang);

export const searchHandle: RouteHandle = {
  noindex: true,
  head: (loaded, t) => {
    const query = (loaded as SearchData | undefined)?.query;
    return { title: query ? t('searchResultsFor', { query }) : t('searchResults') };
  },
};

export function SearchPage() {
  const { t } = useI18n();
  const portal = usePortalLinks();
  const { query, results } = useLoaderData() as SearchData;

  // Each search the visitor sees counts once in the team's report, found or not.
  useEffect(() => {
    if (query) reportSearch({ type: 'search', query, found: results.length });
  }, [query, results]);

  // Visiting /search without a query restores the stored one (the specification), with its results.
  const navigate = useNavigate();
  const { localHref } = useI18n();
  useEffect(() => {
    const stored = query ? '' : (readItem(storageKeys.query) ?? '').trim();
    if (stored) void navigate(localHref(href.search(stored.slice(0, SEARCH_TEXT_MAX))), { replace: true });
  }, [query, navigate, localHref]);

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
  return <SearchResults query={query} results={results} />;
}

function SearchResults({ query, results }: { query: string; results: Suggestion[] }) {
  const { t, lang, pageLang, localHref } = useI18n();
  const { sections, categories } = useRootData();
  const [params] = useSearchParams();
  const page = readPage(params.get('page'), results.length);
  const shown = Math.min(results.length, page * SEARCH_PAGE_SIZE);
  const groups = visibleGroups(
    results,
    {
      categories: new Map(categories.map((c) => [c.id, c.name])),
      sections: new Map(sections.map((s) => [s.id, s.name])),
    },
    shown,
  );
  // The call answers at most SUGGESTIONS_LIMIT_MAX: when it is full, there may be more that are not listed.
  const capped = results.length >= SUGGESTIONS_LIMIT_MAX;

  // After "Show more", focus moves to the first result it added, so keyboard and screen-reader users go on from
  // there; the page as first shown (or reloaded) keeps the focus where the browser put it. In the commit that adds
  // them (a layout effect): after it, a key pressed as the results appear would still act on the button.
  const list = useRef<HTMLDivElement>(null);
  const shownBefore = useRef(shown);
  useLayoutEffect(() => {
    if (shown > shownBefore.current) {
      const first = list.current?.querySelector<HTMLElement>(`#result-${shownBefore.current + 1} a`);
      first?.focus();
    }
    shownBefore.current = shown;
  }, [shown]);

  // Numbered in the order shown, for the fragment of the "Show more" address.
  const positions = new Map(
    groups.flatMap((group) => group.items).map((item, index) => [item.id, index + 1]),
  );
  return (
    <section className="search-page">
      <h1>{t(capped ? 'searchTopResults' : 'searchResultCount', { count: results.length, query })}</h1>
      {capped && <p className="search-hint">{t('searchTopResultsHint')}</p>}
      <div ref={list}>
        {groups.map((group) => (
          <section key={group.key} className="search-group" aria-labelledby={`group-${group.key}`}>
            <h2 id={`group-${group.key}`}>
              {group.categoryId !== null ? (
                <Link to={localHref(href.category(group.categoryId))}>{group.heading}</Link>
              ) : (
                group.heading
              )}
            </h2>
            <ul className="article-list search-results">
              {group.items.map((item) => (
                <li
                  key={item.id}
                  id={`result-${positions.get(item.id)}`}
                  className="article-item"
                  lang={shownLang(item.lang, lang)}
                >
                  <Link
                    to={localHref(href.instruction(item.id))}
                    onClick={() => reportSearch({ type: 'open', query, id: item.id })}
                  >
                    {item.title}
                  </Link>
                  <ResultSnippet snippet={item.snippet} />
                </li>
              ))}
            </ul>
          </section>
        ))}
      </div>
      {shown < results.length && (
        <div className="search-more">
          <p id="results-shown" className="search-more-count">
            {t('resultsShown', { shown, total: results.length })}
          </p>
          <Link
            className="button button-secondary"
            to={pageHref(query, page + 1, pageLang)}
            replace
            preventScrollReset
            aria-describedby="results-shown"
          >
            {t('showMore')}
          </Link>
        </div>
      )}
    </section>
  );
}
