import { decodeEntities } from '../search/text.ts';

/**
 * Stored (already sanitised) HTML as the plain text of a mail: paragraphs and headings apart, line breaks kept, list
 * items as "- ", a link's address after its text, quotes marked "> ", code as written.
 */
export function htmlToMailText(html: string): string {
  const marked = html
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, '')
    .replace(/<a\b[^>]*\bhref="([^"]*)"[^>]*>([\s\S]*?)<\/a>/gi, (_whole, href: string, inner: string) => {
      const text = inner.replace(/<[^>]*>/g, '');
      const address = decodeEntities(href);
      return decodeEntities(text).trim() === address ? text : `${text} (${href})`;
    })
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<li\b[^>]*>/gi, '\n- ')
    .replace(/<\/(p|h[1-6]|pre|ul|ol|table|div|blockquote)>/gi, '\n\n')
    .replace(/<\/tr>/gi, '\n')
    .replace(/<\/t[dh]>/gi, '\t');
  // A quote's lines are marked as mail clients mark them.
  const quoted = marked.replace(/<blockquote\b[^>]*>([\s\S]*?)\n\n(?=\s*(<|$))/gi, (_whole, inner: string) =>
    inner
      .replace(/<[^>]*>/g, '')
      .split('\n')
      .map((line) => `> ${line}`)
      .join('\n')
      .concat('\n\n'),
  );
  return decodeEntities(quoted.replace(/<[^>]*>/g, ''))
    .split('\n')
    .map((line) => line.replace(/[ \t]+$/, ''))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
