/** Tables boxed to scroll sideways, for every stored HTML the site shows (components/html-content.tsx). */
/**
 * Each outermost table in a box of its own that scrolls sideways, focusable so a keyboard can scroll it too (not a
 * named region: several tables would be landmarks of one name). Tables inside tables stay in their cell (the body
 * is sanitised, so every `<table` is a tag).
 */
export function boxTables(html: string): string {
  const open = '<div class="table-scroll" tabindex="0">';
  let out = '';
  let depth = 0;
  let copied = 0;
  for (const tag of html.matchAll(/<(\/?)table(?=[\s>])[^>]*>/g)) {
    const at = tag.index ?? 0;
    if (!tag[1]) {
      if (depth++ === 0) {
        out += `${html.slice(copied, at)}${open}`;
        copied = at;
      }
    } else if (depth > 0 && --depth === 0) {
      const end = at + tag[0].length;
      out += `${html.slice(copied, end)}</div>`;
      copied = end;
    }
  }
  return `${out}${html.slice(copied)}${depth > 0 ? '</div>' : ''}`;
}
