/** Text made safe to place in HTML, in element content and in quoted attribute values alike. */
export const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );

/** The named references HTML's own escaping writes (escapeHtml, React, the sanitiser), and the no-break space. */
const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
};

/**
 * Text with HTML's character references read, the one decoder of server and browser alike: the named ones HTML's
 * escaping writes (in any case; `&nbsp;` as a plain space, since every reader wants words: search, mail, outlines)
 * and every numeric one, decimal or hex; one past Unicode reads as a space. `&#0;` and a name not listed stay as
 * written (no NUL reaches a text or a column), and each reference is read once (`&amp;lt;` is `&lt;`).
 */
export const decodeEntities = (text: string) =>
  text.replace(/&(#x[0-9a-f]+|#\d+|[a-z][a-z0-9]*);/gi, (reference, name: string) => {
    if (name[0] !== '#') return NAMED_ENTITIES[name.toLowerCase()] ?? reference;
    const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1));
    if (code === 0) return reference;
    return code <= 0x10ffff ? String.fromCodePoint(code) : ' ';
  });

/**
 * A value as JSON safe inside `<script type="application/json">` (or `ld+json`): `<`, `>`, `&` and the line
 * separators are escaped, so nothing in the data can end the element.
 */
export const inertJson = (value: unknown) =>
  JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );

/**
 * What every id in stored HTML starts with (the sanitiser adds it, and the article page's heading ids take it too),
 * so content can neither clobber globals scripts read nor collide with the page's own ids.
 */
export const CONTENT_ID_PREFIX = 'user-content-';
