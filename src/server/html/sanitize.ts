import sanitizeHtml from 'sanitize-html';

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

/** Classes the public site styles; anything else is dropped so stored HTML cannot borrow the site's own classes. */
const ALLOWED_CLASSES = ['callout', 'callout-*', 'language-*', 'table-*', 'note', 'warning', 'tip'];

const VIDEO_HOSTS = ['www.youtube.com', 'youtube.com', 'www.youtube-nocookie.com', 'player.vimeo.com'];

export interface SanitizeOptions {
  /** Rewrites a URL found in src or href (e.g. a relative image path to a stored file's link). */
  rewriteUrl?: (url: string, attribute: 'src' | 'href') => string;
}

/**
 * The one gate every HTML fragment passes before it is stored for the public: an allowlist suited to help
 * articles. Links keep only http, https, mailto, tel and relative URLs; frames only from video hosts.
 */
export function sanitizeArticleHtml(html: string, options: SanitizeOptions = {}): string {
  const rewrite = options.rewriteUrl ?? ((url: string) => url);
  return sanitizeHtml(html, {
    allowedTags: ALLOWED_TAGS,
    allowedAttributes: {
      '*': ['id', 'title', 'lang', 'dir'],
      a: ['href', 'name', 'target', 'rel'],
      img: ['src', 'alt', 'width', 'height', 'loading'],
      source: ['srcset', 'type', 'media'],
      iframe: ['src', 'width', 'height', 'allowfullscreen', 'title'],
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
    },
    allowedClasses: {
      div: ALLOWED_CLASSES,
      span: ALLOWED_CLASSES,
      code: ALLOWED_CLASSES,
      pre: ALLOWED_CLASSES,
      table: ALLOWED_CLASSES,
    },
    allowedSchemes: ['http', 'https', 'mailto', 'tel'],
    allowedSchemesByTag: { img: ['http', 'https'], source: ['http', 'https'], iframe: ['https'] },
    allowProtocolRelative: false,
    allowedIframeHostnames: VIDEO_HOSTS,
    allowIframeRelativeUrls: false,
    disallowedTagsMode: 'discard',
    nestingLimit: 200,
    transformTags: {
      a: (tagName, attribs) => {
        const next = { ...attribs };
        if (next.href) next.href = rewrite(next.href, 'href');
        if (next.target === '_blank') next.rel = 'noopener noreferrer';
        else delete next.target;
        return { tagName, attribs: next };
      },
      img: (tagName, attribs) => {
        const next = { ...attribs };
        if (next.src) next.src = rewrite(next.src, 'src');
        next.loading = 'lazy';
        return { tagName, attribs: next };
      },
    },
  });
}
