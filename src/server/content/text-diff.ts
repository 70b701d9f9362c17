import { diffLines, diffWords, type ChangeObject } from 'diff';
import type { DiffPart } from '../../shared/api/admin.ts';

/** A line diff of two 1 MiB bodies can take long; past this it answers "all removed, all added". */
const BODY_DIFF_TIMEOUT_MS = 2_000;

const BLOCK_TAG =
  /(<\/?(?:address|article|aside|blockquote|br|caption|col|colgroup|dd|details|div|dl|dt|figcaption|figure|footer|h[1-6]|header|hr|iframe|img|li|ol|p|picture|pre|section|source|summary|table|tbody|td|tfoot|th|thead|tr|ul)\b[^>]*>)/gi;

/** Each block-level tag on a line of its own, so a line diff follows the document's structure. */
export function blockLines(html: string): string {
  return html
    .replace(BLOCK_TAG, '\n$1\n')
    .replace(/\n[ \t]*(?=\n)/g, '')
    .replace(/\n{2,}/g, '\n')
    .replace(/^\n+|\n+$/g, '');
}

const toParts = (changes: ChangeObject<string>[]): DiffPart[] =>
  changes
    .filter((change) => change.value !== '')
    .map((change) => ({
      op: change.added ? 'insert' : change.removed ? 'delete' : 'equal',
      text: change.value,
    }));

/** Word by word: titles and names. */
export const diffText = (from: string, to: string): DiffPart[] => toParts(diffWords(from, to));

/** Line by line over the HTML, one block tag per line: bodies and descriptions. */
export function diffHtml(from: string, to: string): DiffPart[] {
  const a = blockLines(from);
  const b = blockLines(to);
  const changes =
    diffLines(a, b, { timeout: BODY_DIFF_TIMEOUT_MS }) ??
    ([
      { value: a, removed: true, added: false, count: 1 },
      { value: b, removed: false, added: true, count: 1 },
    ] satisfies ChangeObject<string>[]);
  return toParts(changes);
}
