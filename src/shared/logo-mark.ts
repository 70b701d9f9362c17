/**
 * Signpost's own mark, shown while the operator has uploaded no logo: a post with two boards pointing either way,
 * on a rounded square. One drawing for the header (inline SVG, in the page's colours) and the favicon (a file).
 */
export const LOGO_MARK = {
  viewBox: '0 0 32 32',
  /** The tile behind the glyph. */
  tile: { width: 32, height: 32, rx: 8 },
  /** The post, then the boards: one to the right, higher, and one to the left. */
  glyph: ['M15 6.5h2.5v20H15z', 'M8 8.5h13l3.5 3.5-3.5 3.5H8z', 'M24 17.5H11l-3.5 3.5 3.5 3.5h13z'],
} as const;

/** The site's accent colour (`--accent` in the stylesheets), which the favicon cannot read from them. */
export const ACCENT_COLOUR = '#0b5cad';

/** Where the server serves the favicon (outside /knowledge, like /admin, so no page route answers it). */
export const FAVICON_PATH = '/favicon.svg';

/** The mark as an SVG file: the favicon. */
export function logoMarkSvg(tile = ACCENT_COLOUR, glyph = '#ffffff'): string {
  const { viewBox, tile: t } = LOGO_MARK;
  const paths = LOGO_MARK.glyph.map((d) => `<path d="${d}"/>`).join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="${viewBox}"><rect width="${t.width}" height="${t.height}" rx="${t.rx}" fill="${tile}"/><g fill="${glyph}">${paths}</g></svg>\n`;
}
