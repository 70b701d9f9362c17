import type { MouseEvent } from 'react';
import { Link } from 'react-router';
import { href } from '../../../shared/paths.ts';
import type { Language } from '../../../shared/constants.ts';
import { useToast } from '../../components/toast.tsx';
import { shownLang, useI18n } from '../../i18n/i18n.tsx';
import { readingMinutes, type OutlineHeading } from '../../lib/article-outline.ts';

export interface ArticleLink {
  id: number;
  title: string;
  lang?: Language;
}

/** Copies a text to the clipboard; false when the browser refuses (no permission, an insecure page). */
async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // Without the Clipboard API (a page served over plain HTTP): the older way, through a selected field.
    const field = document.createElement('textarea');
    field.value = text;
    field.setAttribute('readonly', '');
    field.style.position = 'fixed';
    field.style.opacity = '0';
    document.body.append(field);
    field.select();
    const copied = document.execCommand('copy');
    field.remove();
    return copied;
  }
}

/** How long "Link copied" shows after a copy (ours: the spec gives no time), long enough to read two words. */
export const LINK_COPIED_TOAST_MS = 3000;

/**
 * Copies a link and says so in the page's toast, read out by screen readers; when the browser refuses, the toast
 * shows the address instead, to copy by hand.
 */
export function useCopyLink(): (url: string) => Promise<void> {
  const { t } = useI18n();
  const showToast = useToast(LINK_COPIED_TOAST_MS);
  return async (url: string) => showToast((await copyText(url)) ? t('urlCopied') : url);
}

/** The date the article last changed, in the site's language (UTC, so the server and the browser agree). */
/** One formatter per language: making one costs more than rendering the rest of the article page's parts. */
const longDates = new Map<string, Intl.DateTimeFormat>();
const longDate = (lang: string) => {
  let format = longDates.get(lang);
  if (!format) {
    format = new Intl.DateTimeFormat(lang, { dateStyle: 'long', timeZone: 'UTC' });
    longDates.set(lang, format);
  }
  return format;
};

function UpdatedOn({ iso }: { iso: string }) {
  const { t, lang } = useI18n();
  const date = longDate(lang).format(new Date(iso));
  // The browser's own date names may differ from the server's in a letter: Preact, which hydrates the page, takes the
  // browser's text without a word. No `suppressHydrationWarning`: Preact knows it not and would write it out as an
  // attribute when it renders the article itself.
  return <time dateTime={iso}>{t('updatedOn', { date })}</time>;
}

/** Under the title: when it last changed, how long it takes to read, and the spec's 'Copy URL'. */
export function ArticleMeta({
  updatedAt,
  words,
  onCopy,
}: {
  updatedAt: string;
  words: number;
  onCopy: () => void;
}) {
  const { t } = useI18n();
  return (
    <div className="article-meta">
      <span className="article-facts">
        <UpdatedOn iso={updatedAt} />
        <span>{t('readingTime', { minutes: readingMinutes(words) })}</span>
      </span>
      <button type="button" className="copy-url" onClick={onCopy}>
        <svg aria-hidden="true" viewBox="0 0 24 24" width="16" height="16">
          <path
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
            strokeLinecap="round"
            d="M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1"
          />
        </svg>
        {t('copyUrl')}
      </button>
    </div>
  );
}

/** The article's sections, for long articles: beside it on wide screens (sticky), at its top on phones. */
export function TableOfContents({
  headings,
  placement,
}: {
  headings: OutlineHeading[];
  placement: 'side' | 'top';
}) {
  const { t } = useI18n();
  const list = (
    <ol>
      {headings.map((heading, index) => (
        // An author may have given two headings one id: the place keeps keys apart.
        <li key={`${index}-${heading.id}`} className={heading.level === 3 ? 'toc-sub' : undefined}>
          <a href={`#${heading.id}`}>{heading.text}</a>
        </li>
      ))}
    </ol>
  );
  // On a phone it sits above the text, folded so the text is not pushed below the screen.
  return placement === 'top' ? (
    <nav className="toc toc-top" aria-label={t('onThisPage')}>
      <details>
        <summary>{t('onThisPage')}</summary>
        {list}
      </details>
    </nav>
  ) : (
    <nav className="toc toc-side" aria-labelledby="toc-heading">
      <h2 id="toc-heading">{t('onThisPage')}</h2>
      {list}
    </nav>
  );
}

/** The article before and after this one in its category, in the category's order. */
export function ArticlePager({ previous, next }: { previous: ArticleLink | null; next: ArticleLink | null }) {
  const { t, lang, localHref } = useI18n();
  if (!previous && !next) return null;
  return (
    <nav className="article-pager" aria-label={t('moreInCategory')}>
      {previous && (
        <Link
          className="pager-link pager-previous"
          to={localHref(href.instruction(previous.id))}
          rel="prev"
          lang={shownLang(previous.lang, lang)}
        >
          <span className="pager-label">← {t('previousArticle')}</span>
          <span className="pager-title">{previous.title}</span>
        </Link>
      )}
      {next && (
        <Link
          className="pager-link pager-next"
          to={localHref(href.instruction(next.id))}
          rel="next"
          lang={shownLang(next.lang, lang)}
        >
          <span className="pager-label">{t('nextArticle')} →</span>
          <span className="pager-title">{next.title}</span>
        </Link>
      )}
    </nav>
  );
}

/** Articles about the same things (found by the article's title), wherever they are. */
export function RelatedArticles({ articles }: { articles: ArticleLink[] }) {
  const { t, lang, localHref } = useI18n();
  if (articles.length === 0) return null;
  return (
    <section className="related" aria-labelledby="related-heading">
      <h2 id="related-heading">{t('relatedArticles')}</h2>
      <ul>
        {articles.map((article) => (
          <li key={article.id} lang={shownLang(article.lang, lang)}>
            <Link to={localHref(href.instruction(article.id))}>{article.title}</Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * A click on a heading's anchor (added to the body by outlineArticle) copies the link to that heading and moves
 * the address there, as following the anchor would.
 */
export function onHeadingAnchorClick(event: MouseEvent<HTMLElement>, copy: (hash: string) => void) {
  const anchor = (event.target as Element).closest?.('a.heading-anchor');
  if (!anchor) return;
  event.preventDefault();
  const hash = anchor.getAttribute('href') ?? '';
  history.replaceState(history.state, '', hash);
  document.getElementById(hash.slice(1))?.scrollIntoView();
  copy(hash);
}
