import type { Suggestion } from '../../../shared/api/search.ts';
import { decodeEntities } from '../../../shared/html.ts';

/** Results shown at first, and added by each "Show more". */
export const SEARCH_PAGE_SIZE = 10;

export interface ResultGroup {
  key: string;
  heading: string;
  /** The category the group stands for, or null for a section's articles outside any category. */
  categoryId: number | null;
  items: Suggestion[];
}

export interface GroupNames {
  categories: Map<number, string>;
  sections: Map<number, string>;
}

/** Results grouped by category, or by section for articles outside any category, in the order found. */
export function groupResults(results: Suggestion[], names: GroupNames): ResultGroup[] {
  const groups = new Map<string, ResultGroup>();
  for (const result of results) {
    const key = result.category_id !== null ? `c${result.category_id}` : `s${result.section_id}`;
    const heading =
      (result.category_id !== null
        ? names.categories.get(result.category_id)
        : names.sections.get(result.section_id)) ?? '';
    const group = groups.get(key) ?? { key, heading, categoryId: result.category_id, items: [] };
    group.items.push(result);
    groups.set(key, group);
  }
  return [...groups.values()];
}

/**
 * The page the address asks for (`?page=3` shows the first 30 results), within 1 and the last page. Anything else
 * (missing, not a whole number, past the end) is read as the nearest page there is, never an error: the address is
 * typed and shared by people.
 */
export function readPage(param: string | null, total: number, pageSize = SEARCH_PAGE_SIZE): number {
  const last = Math.max(1, Math.ceil(total / pageSize));
  const digits = param?.trim() ?? '';
  if (!/^\d+$/.test(digits)) return 1;
  // A number too long for a double is Infinity: the last page.
  return Math.min(last, Math.max(1, Number(digits)));
}

/**
 * The groups of the first `shown` results. All results are grouped first and cut after, so each category keeps one
 * heading however many pages are shown, and results a page adds always come below those already shown (at the end
 * of the last group or in groups after it), where the visitor is reading.
 */
export function visibleGroups(results: Suggestion[], names: GroupNames, shown: number): ResultGroup[] {
  const ordered = groupResults(results, names).flatMap((group) => group.items);
  return groupResults(ordered.slice(0, shown), names);
}

export interface SnippetPart {
  text: string;
  marked: boolean;
}

/**
 * A snippet of the search call (escaped text, matched words in `<mark>`) as text parts to render as React text.
 * Nothing of it becomes HTML: a tag other than `<mark>` would show as the characters it is made of.
 */
export function snippetParts(html: string): SnippetPart[] {
  const parts: SnippetPart[] = [];
  const add = (raw: string, marked: boolean) => {
    if (!raw) return;
    const text = decodeEntities(raw);
    const last = parts.at(-1);
    if (last && last.marked === marked) last.text += text;
    else parts.push({ text, marked });
  };
  const pattern = /<mark>([\s\S]*?)<\/mark>/g;
  let cursor = 0;
  for (let m = pattern.exec(html); m; m = pattern.exec(html)) {
    add(html.slice(cursor, m.index), false);
    add(m[1] ?? '', true);
    cursor = m.index + m[0].length;
  }
  add(html.slice(cursor), false);
  return parts;
}
