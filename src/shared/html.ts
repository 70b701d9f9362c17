/** Text made safe to place in HTML, in element content and in quoted attribute values alike. */
export const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );

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
