/** An id from the address bar, or null for anything that is not a plain positive number. */
export const parseId = (raw: string | undefined): number | null =>
  raw && /^\d{1,9}$/.test(raw) ? Number(raw) : null;

/** The first words of the body, for search engines and link previews. */
export function describe(html: string): string {
  const text = html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&[a-z#0-9]+;/gi, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > 160 ? `${text.slice(0, 157).replace(/\s+\S*$/, '')}…` : text;
}
