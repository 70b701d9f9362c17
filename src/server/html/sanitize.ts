import sanitizeHtml from 'sanitize-html';
import { CONTENT_ID_PREFIX } from '../../shared/html.ts';

/**
 * The one gate every HTML fragment passes before it is stored for the public (article bodies, category
 * descriptions, imported Markdown, pasted content): an allowlist suited to help articles.
 *
 * - Elements: text structure, lists, tables, code, quotes, images (`<picture>` with its `<source>`s), details, and
 *   `<iframe>` for videos. Never scripts, styles, forms, `<meta>`/`<base>`/`<link>`, objects or embeds, SVG or
 *   MathML (their children are kept as HTML only where allowed; the foreign wrapper is gone, so no namespace
 *   confusion can survive). Comments, CDATA sections and processing instructions are dropped.
 * - Attributes: a short list per element; never event handlers or `style`; classes only from the site's own
 *   content classes (`callout`, ...). `id`s (and the obsolete `<a name>`) become `user-content-…`, so stored HTML can
 *   neither clobber globals that scripts read (`window.dataLayer`, `__proto__`, ...) nor collide with the page's
 *   own ids; relative links to `#fragment`s follow the same prefix.
 * - URLs: links take http, https, mailto, tel and relative URLs; images and `srcset`s http, https and relative;
 *   never `javascript:`, `data:` or `vbscript:`, never protocol-relative (`//host`, `\\host`), never a URL with
 *   control, invisible or unusual space characters or a backslash (browsers ignore or reinterpret those).
 * - Frames: only `https` video players (YouTube, YouTube without cookies, Vimeo), with a fixed sandbox and
 *   referrer policy; nothing else an author wrote on the frame survives but its size and title.
 * - Links that open a new window get `rel="noopener noreferrer"`; any other `target` or `rel` is dropped.
 * - Elements nested deeper than {@link NESTING_LIMIT} are dropped (their text is kept).
 *
 * The result is stable: sanitising it again gives the same string.
 */

/** Elements deeper than this are dropped, keeping their text; help articles never need more. */
export const NESTING_LIMIT = 100;

/** What every stored `id` starts with. */
export const ID_PREFIX = CONTENT_ID_PREFIX;

/** The video players an article may embed: scheme https, these hosts, these paths. */
export const VIDEO_EMBEDS: ReadonlyArray<{ host: string; path: string; aliases?: string[] }> = [
  { host: 'www.youtube.com', path: '/embed/', aliases: ['youtube.com'] },
  { host: 'www.youtube-nocookie.com', path: '/embed/', aliases: ['youtube-nocookie.com'] },
  { host: 'player.vimeo.com', path: '/video/' },
];

/** Set on every video frame: scripts inside the player, but no navigating or framing of our page. */
const FRAME_SANDBOX =
  'allow-scripts allow-same-origin allow-presentation allow-popups allow-popups-to-escape-sandbox';
const FRAME_ALLOW = 'encrypted-media; picture-in-picture; fullscreen';

const ALLOWED_TAGS = [
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'p',
  'br',
  'hr',
  'div',
  'span',
  'ul',
  'ol',
  'li',
  'dl',
  'dt',
  'dd',
  'blockquote',
  'pre',
  'code',
  'kbd',
  'samp',
  'var',
  'em',
  'strong',
  'b',
  'i',
  'u',
  's',
  'del',
  'ins',
  'sub',
  'sup',
  'mark',
  'small',
  'abbr',
  'q',
  'cite',
  'a',
  'img',
  'figure',
  'figcaption',
  'picture',
  'source',
  'table',
  'caption',
  'colgroup',
  'col',
  'thead',
  'tbody',
  'tfoot',
  'tr',
  'th',
  'td',
  'details',
  'summary',
  'iframe',
];

/** Classes the public site styles for content; anything else is dropped so stored HTML cannot borrow the site's own. */
const ALLOWED_CLASSES = ['callout', 'callout-*', 'language-*', 'table-*', 'note', 'warning', 'tip'];

const LINK_SCHEMES = new Set(['http', 'https', 'mailto', 'tel']);
const IMAGE_SCHEMES = new Set(['http', 'https']);

/**
 * Characters that make a URL mean something other than it reads: C0/C1 controls (browsers drop tabs and newlines
 * inside URLs), format and invisible characters, spaces other than U+0020, line and paragraph separators, and the
 * backslash (a slash to browsers in http URLs: `/\evil.example` is protocol-relative).
 */
const UNSAFE_URL_CHARACTER = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000\u180e\\]/u;
const SCHEME = /^([a-z][a-z0-9+.-]*):/i;
const ID_VALUE = /^[\p{L}\p{N}_-]{1,80}$/u;

/**
 * The URL as it may be stored, or null when it may not: a scheme from `schemes`, or a relative URL that is not
 * protocol-relative. Leading and trailing ASCII whitespace is removed (as browsers do).
 */
export function safeUrl(raw: string, schemes: ReadonlySet<string>): string | null {
  const url = raw.replace(/^[\t\n\f\r ]+|[\t\n\f\r ]+$/g, '');
  if (url === '' || UNSAFE_URL_CHARACTER.test(url)) return null;
  const scheme = SCHEME.exec(url);
  if (scheme) return schemes.has((scheme[1] as string).toLowerCase()) ? url : null;
  if (url.startsWith('//')) return null;
  return url;
}

/** `install` → `user-content-install`; values that are not plain names are dropped. */
function contentId(raw: string): string | undefined {
  const value = raw.trim();
  if (!ID_VALUE.test(value)) return undefined;
  return value.startsWith(ID_PREFIX) ? value : `${ID_PREFIX}${value}`;
}

/** A relative URL's `#fragment` points at a stored `id`, so it takes the same prefix. */
function withContentFragment(url: string): string {
  if (SCHEME.test(url)) return url;
  const hash = url.indexOf('#');
  if (hash === -1) return url;
  const id = contentId(url.slice(hash + 1));
  return id === undefined ? url : `${url.slice(0, hash)}#${id}`;
}

/** The player URL, normalised, if `raw` is an https URL of an allowed video player. */
export function videoEmbedUrl(raw: string): string | null {
  const checked = safeUrl(raw, new Set(['https']));
  if (checked === null || !/^https:\/\//i.test(checked)) return null;
  let url: URL;
  try {
    url = new URL(checked);
  } catch {
    return null;
  }
  if (url.username || url.password || url.port) return null;
  const embed = VIDEO_EMBEDS.find((e) => e.host === url.hostname || e.aliases?.includes(url.hostname));
  if (!embed || !url.pathname.startsWith(embed.path) || url.pathname.length <= embed.path.length) return null;
  url.hostname = embed.host;
  return url.href;
}

/**
 * A `srcset` with every candidate checked like an image URL: `a.png 1x, b.png 2x`. Candidates with bad URLs or
 * descriptors are dropped; null when none is left.
 */
export function safeSrcset(raw: string): string | null {
  const candidates: string[] = [];
  let rest = raw;
  for (;;) {
    rest = rest.replace(/^[\s,]+/, '');
    if (rest === '') break;
    const urlMatch = /^\S+/.exec(rest) as RegExpExecArray;
    let url = urlMatch[0];
    rest = rest.slice(url.length);
    let descriptor = '';
    if (/,+$/.test(url)) {
      url = url.replace(/,+$/, '');
    } else {
      const end = rest.indexOf(',');
      descriptor = (end === -1 ? rest : rest.slice(0, end)).trim();
      rest = end === -1 ? '' : rest.slice(end + 1);
    }
    const checked = safeUrl(url, IMAGE_SCHEMES);
    if (checked === null || !/^(\d+w|\d+(\.\d+)?x)?$/.test(descriptor)) continue;
    candidates.push(descriptor ? `${checked} ${descriptor}` : checked);
  }
  return candidates.length ? candidates.join(', ') : null;
}

const digits = (value: string | undefined) =>
  value !== undefined && /^\d{1,5}$/.test(value.trim()) ? value.trim() : undefined;

type Attributes = Record<string, string>;

/** Drops the keys whose value is undefined (sanitize-html would print them as the text "undefined"). */
function defined(attribs: Record<string, string | undefined>): Attributes {
  const out: Attributes = {};
  for (const [key, value] of Object.entries(attribs)) if (value !== undefined) out[key] = value;
  return out;
}

/** Browsers never show what is inside a frame; neither do we (sanitize-html would keep it). */
const emptyFrames = (html: string) => html.replace(/(<iframe\b[^>]*>)[\s\S]*?<\/iframe>/g, '$1</iframe>');

/**
 * How deep a fragment may nest before the parser sees it. The HTML parser sanitize-html uses keeps its stack with
 * `Array.unshift`, so 100,000 nested tags cost seconds; this linear pass drops open and close tags beyond this depth
 * first (keeping the text), and the parser then applies the real {@link NESTING_LIMIT}. Ordinary HTML, unclosed
 * `<li>`s and `<p>`s included, never comes near it.
 */
const PARSER_DEPTH_LIMIT = 1000;

const VOID_ELEMENTS = new Set([
  'area',
  'base',
  'basefont',
  'bgsound',
  'br',
  'col',
  'embed',
  'frame',
  'hr',
  'img',
  'input',
  'keygen',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);

/** Where the tag starting at `start` (just after its name) ends: after its `>`, skipping quoted attribute values. */
function endOfTag(html: string, start: number): number {
  let afterEquals = false;
  for (let i = start; i < html.length; i++) {
    const c = html[i];
    if (c === '>') return i + 1;
    if (c === '=') {
      afterEquals = true;
    } else if (afterEquals && (c === '"' || c === "'")) {
      const close = html.indexOf(c, i + 1);
      if (close === -1) return html.length;
      i = close;
      afterEquals = false;
    } else if (!/\s/.test(c as string)) {
      afterEquals = false;
    }
  }
  return html.length;
}

/**
 * Drops the tags nested deeper than `limit` (counting as a parser would, closing tags matched by name), keeping
 * everything else as it is. Not a sanitiser: its output still goes through sanitize-html.
 */
export function capNesting(html: string, limit = PARSER_DEPTH_LIMIT): string {
  const stack: { name: string; kept: boolean }[] = [];
  const inStack = new Map<string, number>();
  const parts: string[] = [];
  let copiedTo = 0;
  let at = html.indexOf('<');
  while (at !== -1 && at < html.length - 1) {
    const next = html[at + 1] as string;
    let end: number;
    if (next === '!' || next === '?') {
      const comment = html.startsWith('<!--', at);
      const close = comment ? html.indexOf('-->', at + 4) : html.indexOf('>', at);
      end = close === -1 ? html.length : close + (comment ? 3 : 1);
    } else if (/[a-zA-Z]/.test(next) || (next === '/' && /[a-zA-Z]/.test(html[at + 2] ?? ''))) {
      const closing = next === '/';
      const nameStart = at + (closing ? 2 : 1);
      const nameMatch = /^[^\s/>]+/.exec(html.slice(nameStart, nameStart + 64)) as RegExpExecArray;
      const name = nameMatch[0].toLowerCase();
      end = endOfTag(html, nameStart + nameMatch[0].length);
      let keep = true;
      if (closing) {
        if (inStack.get(name)) {
          for (let entry = stack.pop(); entry; entry = stack.pop()) {
            inStack.set(entry.name, (inStack.get(entry.name) ?? 1) - 1);
            if (entry.name === name) {
              keep = entry.kept;
              break;
            }
          }
        }
      } else if (!VOID_ELEMENTS.has(name)) {
        keep = stack.length < limit;
        stack.push({ name, kept: keep });
        inStack.set(name, (inStack.get(name) ?? 0) + 1);
      }
      if (!keep) {
        parts.push(html.slice(copiedTo, at));
        copiedTo = end;
      }
    } else {
      end = at + 1;
    }
    at = html.indexOf('<', end);
  }
  if (copiedTo === 0) return html;
  parts.push(html.slice(copiedTo));
  return parts.join('');
}

export interface SanitizeOptions {
  /** Rewrites a URL found in src or href (e.g. a relative image path to a stored file's link). */
  rewriteUrl?: (url: string, attribute: 'src' | 'href') => string;
}

/** What one cleaning knows as it walks: the author's URLs rewritten, the elements open, the elements dropped. */
interface Walk {
  rewrite: (url: string, attribute: 'src' | 'href') => string;
  /** The raw element names open around the current one, to know a <source>'s parent. */
  open: string[];
  /**
   * The attributes of elements that failed a check: `exclusiveFilter` drops them with their content. (Renaming them
   * to an unknown tag would not do: sanitize-html then closes the next sibling with that name.)
   */
  doomed: WeakSet<object>;
}

type Transformed = { tagName: string; attribs: Record<string, string> };

function drop(walk: Walk, tagName: string): Transformed {
  const attribs = {};
  walk.doomed.add(attribs);
  return { tagName, attribs };
}

/** The attributes each element may keep, and the classes of ours. */
const allowedAttributes = () => ({
  '*': ['id', 'title', 'lang', 'dir'],
  a: ['href', 'target', 'rel'],
  img: ['src', 'srcset', 'sizes', 'alt', 'width', 'height', 'loading'],
  source: ['srcset', 'sizes', 'type', 'media', 'width', 'height'],
  iframe: [
    'src',
    'width',
    'height',
    'title',
    'allowfullscreen',
    'allow',
    'sandbox',
    'referrerpolicy',
    'loading',
  ],
  th: ['colspan', 'rowspan', 'scope', 'align'],
  td: ['colspan', 'rowspan', 'align'],
  col: ['span'],
  colgroup: ['span'],
  ol: ['start', 'reversed', 'type'],
  li: ['value'],
  details: ['open'],
  div: ['class'],
  span: ['class'],
  code: ['class'],
  pre: ['class'],
  table: ['class'],
});

/** Elements whose content is not HTML: dropped with everything inside. */
const nonTextTags = () =>
  [
    'script',
    'style',
    'textarea',
    'option',
    'xmp',
    'noscript',
    'noembed',
    'noframes',
    'template',
    'title',
    'plaintext',
    'iframe',
    'object',
    'svg',
    'math',
  ].filter((tag) => !ALLOWED_TAGS.includes(tag));

/** What sanitize-html is told besides the checks of each element: made anew for every cleaning, as it was. */
function baseConfig(): sanitizeHtml.IOptions & { allowedEmptyAttributes: string[] } {
  return {
    allowedTags: ALLOWED_TAGS,
    allowedAttributes: allowedAttributes(),
    allowedClasses: {
      div: ALLOWED_CLASSES,
      span: ALLOWED_CLASSES,
      code: ALLOWED_CLASSES,
      pre: ALLOWED_CLASSES,
      table: ALLOWED_CLASSES,
    },
    // A second line behind the transforms below, which already checked every URL.
    allowedSchemes: ['http', 'https', 'mailto', 'tel'],
    allowedSchemesByTag: { img: ['http', 'https'], source: ['http', 'https'], iframe: ['https'] },
    allowedSchemesAppliedToAttributes: [
      'href',
      'src',
      'cite',
      'action',
      'formaction',
      'xlink:href',
      'poster',
    ],
    allowProtocolRelative: false,
    allowedIframeHostnames: VIDEO_EMBEDS.map((embed) => embed.host),
    allowIframeRelativeUrls: false,
    allowedEmptyAttributes: ['alt', 'allowfullscreen', 'open', 'reversed'],
    disallowedTagsMode: 'discard',
    nestingLimit: NESTING_LIMIT,
    nonTextTags: nonTextTags(),
    parser: { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
    selfClosing: ['img', 'br', 'hr', 'source', 'col'],
  };
}

function transformLink(walk: Walk, tagName: string, attribs: Record<string, string>): Transformed {
  const href = attribs.href === undefined ? null : safeUrl(walk.rewrite(attribs.href, 'href'), LINK_SCHEMES);
  const blank = attribs.target === '_blank' && href !== null;
  return {
    tagName,
    attribs: defined({
      ...attribs,
      href: href === null ? undefined : withContentFragment(href),
      // The obsolete anchor form: kept as an id, since `name` on <a> clobbers window globals.
      id: attribs.id ?? attribs.name,
      name: undefined,
      target: blank ? '_blank' : undefined,
      rel: blank ? 'noopener noreferrer' : undefined,
    }),
  };
}

function transformImage(walk: Walk, tagName: string, attribs: Record<string, string>): Transformed {
  const src = attribs.src === undefined ? null : safeUrl(walk.rewrite(attribs.src, 'src'), IMAGE_SCHEMES);
  const srcset = attribs.srcset === undefined ? null : safeSrcset(attribs.srcset);
  if (src === null && srcset === null) return drop(walk, tagName);
  return {
    tagName,
    attribs: defined({
      ...attribs,
      src: src ?? undefined,
      srcset: srcset ?? undefined,
      width: digits(attribs.width),
      height: digits(attribs.height),
      loading: 'lazy',
    }),
  };
}

function transformSource(walk: Walk, tagName: string, attribs: Record<string, string>): Transformed {
  // A <source> belongs in a <picture> only (audio and video are not allowed).
  const parent = walk.open[walk.open.length - 2];
  const srcset = attribs.srcset === undefined ? null : safeSrcset(attribs.srcset);
  if (parent !== 'picture' || srcset === null) return drop(walk, tagName);
  return {
    tagName,
    attribs: defined({
      ...attribs,
      srcset,
      type: attribs.type && /^image\/[a-z0-9.+-]+$/i.test(attribs.type) ? attribs.type : undefined,
      width: digits(attribs.width),
      height: digits(attribs.height),
    }),
  };
}

function transformFrame(walk: Walk, tagName: string, attribs: Record<string, string>): Transformed {
  const src = attribs.src === undefined ? null : videoEmbedUrl(attribs.src);
  const nested = walk.open.indexOf('iframe') < walk.open.length - 1;
  if (src === null || nested) return drop(walk, tagName);
  // Only the player, its size and title are the author's; the rest is ours (no srcdoc, own sandbox).
  return {
    tagName,
    attribs: defined({
      id: attribs.id,
      src,
      width: digits(attribs.width),
      height: digits(attribs.height),
      title: attribs.title,
      allowfullscreen: attribs.allowfullscreen !== undefined ? '' : undefined,
      allow: FRAME_ALLOW,
      sandbox: FRAME_SANDBOX,
      referrerpolicy: 'strict-origin-when-cross-origin',
      loading: 'lazy',
    }),
  };
}

/**
 * Cleans one HTML fragment for storage (see the module comment for what survives). `rewriteUrl` runs before the
 * URL checks, so what it returns is checked like anything an author wrote.
 */
export function sanitizeArticleHtml(html: string, options: SanitizeOptions = {}): string {
  const walk: Walk = {
    rewrite: options.rewriteUrl ?? ((url: string) => url),
    open: [],
    doomed: new WeakSet(),
  };
  const { open } = walk;
  const config: sanitizeHtml.IOptions & { allowedEmptyAttributes: string[] } = {
    ...baseConfig(),
    onOpenTag: (name) => {
      open.push(name);
    },
    onCloseTag: (name) => {
      if (!open.includes(name)) return;
      for (let closed = open.pop(); closed !== undefined && closed !== name; closed = open.pop());
    },
    exclusiveFilter: (frame) => walk.doomed.has(frame.attribs),
    transformTags: {
      a: (tagName, attribs) => transformLink(walk, tagName, attribs),
      img: (tagName, attribs) => transformImage(walk, tagName, attribs),
      source: (tagName, attribs) => transformSource(walk, tagName, attribs),
      iframe: (tagName, attribs) => transformFrame(walk, tagName, attribs),
      '*': (tagName, attribs) => {
        if (attribs.id === undefined) return { tagName, attribs };
        return { tagName, attribs: defined({ ...attribs, id: contentId(attribs.id) }) };
      },
    },
  };
  return emptyFrames(sanitizeHtml(capNesting(html), config));
}
