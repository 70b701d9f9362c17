import { decodeEntities, escapeHtml } from '../../shared/html.ts';

/** A quote's text with each line marked as mail clients mark quoted lines. */
const quoted = (text: string) =>
  text
    .split('\n')
    .map((line) => (line ? `> ${line}` : '>'))
    .join('\n');

/** Innermost quotes first, each turned into its marked text (kept as HTML text, so the rest of the work passes it). */
function markQuotes(html: string): string {
  let result = html;
  for (let depth = 0; depth < 10 && /<blockquote\b/i.test(result); depth++)
    result = result.replace(
      /<blockquote\b[^>]*>((?:(?!<blockquote\b)[\s\S])*?)<\/blockquote>/gi,
      (_whole, inner: string) => `<p>${escapeHtml(quoted(htmlToMailText(inner))).replace(/\n/g, '<br>')}</p>`,
    );
  return result;
}

/** Links and images of the site written from its root (`/knowledge/…`, `/files/…`) made whole for a mail. */
export function absoluteLinks(html: string, publicUrl: string): string {
  return html.replace(
    /\b(href|src)="\/(?!\/)/g,
    (_whole, attribute: string) => `${attribute}="${publicUrl}/`,
  );
}

/**
 * Stored (already sanitised) HTML as the plain text of a mail: paragraphs and headings apart, line breaks kept, list
 * items as "- ", a link's address after its text, quotes marked "> ", code as written.
 */
export function htmlToMailText(html: string): string {
  const marked = markQuotes(html)
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
  return decodeEntities(marked.replace(/<[^>]*>/g, ''))
    .split('\n')
    .map((line) => line.replace(/[ \t]+$/, ''))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
