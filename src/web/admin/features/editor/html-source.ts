const BLOCK =
  'p|h[1-6]|ul|ol|li|table|thead|tbody|tfoot|tr|th|td|blockquote|div|pre|figure|colgroup|col|hr|img';
const NEXT_IS_BLOCK = `(?=<\\/?(?:${BLOCK})\\b)`;
const BLOCK_CLOSE = new RegExp(`(</(?:${BLOCK})>|<hr>)${NEXT_IS_BLOCK}`, 'g');
const BLOCK_OPEN = new RegExp(
  `(<(?:ul|ol|li|table|thead|tbody|tfoot|tr|th|td|blockquote|colgroup)>|<div class="[^"]*">)${NEXT_IS_BLOCK}`,
  'g',
);

/**
 * The rich editor writes its HTML on one line; the source view shows a tag per line where that changes nothing:
 * only between tags, never inside text, so the HTML reads the same to a browser.
 */
export function formatHtml(html: string): string {
  return html.replace(BLOCK_CLOSE, '$1\n').replace(BLOCK_OPEN, '$1\n');
}

/** Tags the rich editor writes differently, and wrappers whose loss changes nothing a visitor sees. */
const SAME_AS: Record<string, string> = { b: 'strong', i: 'em', del: 's', strike: 's' };
const STRUCTURAL = new Set(['thead', 'tbody', 'tfoot', 'colgroup', 'col', 'br']);

const tagsIn = (html: string) =>
  new Set([...html.matchAll(/<([a-zA-Z][a-zA-Z0-9]*)/g)].map((m) => (m[1] ?? '').toLowerCase()));

/** Which kinds of element of `original` the rich editor's version no longer has: markup it cannot hold. */
export function lostTags(original: string, kept: string): string[] {
  const after = tagsIn(kept);
  return [...tagsIn(original)]
    .filter((tag) => !STRUCTURAL.has(tag) && !after.has(SAME_AS[tag] ?? tag))
    .sort();
}
