import { CONTENT_ID_PREFIX, decodeEntities } from '../../shared/html.ts';

/**
 * What the site adds to stored HTML as it shows it: an id on each section heading of an article (so a heading can
 * be linked to and listed in the table of contents), and a box around each table that scrolls sideways on a narrow
 * screen. The body was sanitised when stored, so its tags are well formed; this only adds attributes and wrappers,
 * the same on the server and in the browser, so hydration matches.
 */

export interface OutlineHeading {
  id: string;
  level: 2 | 3;
  text: string;
}

export interface ArticleOutline {
  html: string;
  headings: OutlineHeading[];
  /** Words in the body, for the reading time. */
  words: number;
}

const textOf = (html: string) =>
  decodeEntities(html.replace(/<[^>]*>/g, ' '))
    .replace(/\s+/g, ' ')
    .trim();

/**
 * A heading's slug: its words, lower case, joined by dashes, in any script (Cyrillic stays Cyrillic). Its id is
 * the slug after CONTENT_ID_PREFIX, as every id in stored HTML is, so it meets neither the page's own ids nor
 * globals, and an author's `#install` link (stored as `#user-content-install`) reaches the heading "Install".
 */
export function slugOf(text: string): string {
  const slug = text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return slug || 'section';
}

const escapeAttribute = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The body with an id on each h2 and h3, its headings in order, and its word count. With `anchorLabel`, each listed
 * heading ends with a `#` link to itself (named by the label), which the page turns into "copy link"; not where the
 * heading sits inside a link, which may not hold another.
 */
export function outlineArticle(html: string, anchorLabel?: (heading: string) => string): ArticleOutline {
  const used = new Set<string>();
  // Ids the body already has (an anchor the author wrote) are not given to a heading twice.
  for (const match of html.matchAll(/\sid="([^"]*)"/g)) used.add(match[1] ?? '');
  const headings: OutlineHeading[] = [];
  // How many links are open where each heading starts: headings come in order, so one pass over the body.
  let scanned = 0;
  let openLinks = 0;
  const linksOpenAt = (offset: number) => {
    for (const tag of html.slice(scanned, offset).matchAll(/<(\/?)a[\s>]/g)) openLinks += tag[1] ? -1 : 1;
    scanned = offset;
    return openLinks > 0;
  };
  const withIds = html.replace(
    /<h([23])((?:\s[^>]*)?)>([\s\S]*?)<\/h\1>/g,
    (whole, level: string, attributes: string, inner: string, offset: number) => {
      const inLink = linksOpenAt(offset);
      const text = textOf(inner);
      if (!text) return whole;
      const own = /\sid="([^"]+)"/.exec(attributes)?.[1];
      let id = own ?? `${CONTENT_ID_PREFIX}${slugOf(text)}`;
      if (!own) {
        const base = id;
        for (let n = 2; used.has(id); n++) id = `${base}-${n}`;
        used.add(id);
      }
      headings.push({ id, level: Number(level) as 2 | 3, text });
      const anchor =
        anchorLabel && !inLink
          ? `<a class="heading-anchor" href="#${escapeAttribute(id)}" aria-label="${escapeAttribute(anchorLabel(text))}">#</a>`
          : '';
      const opening = own
        ? `<h${level}${attributes}>`
        : `<h${level}${attributes} id="${escapeAttribute(id)}">`;
      return `${opening}${inner}${anchor}</h${level}>`;
    },
  );
  const text = textOf(html);
  return { html: withIds, headings, words: text ? text.split(' ').length : 0 };
}

/** Minutes to read, at 200 words a minute, at least one. */
export const readingMinutes = (words: number) => Math.max(1, Math.round(words / 200));
