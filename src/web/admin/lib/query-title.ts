/**
 * An article title from a search query as the report keeps it (folded to lower case): spaces collapsed, a question
 * mark or full stop at the end dropped, the first letter upper case.
 */
export function titleFromQuery(query: string): string {
  const text = query
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[\s.?!,;:]+$/u, '');
  const [first = '', ...rest] = Array.from(text);
  return first.toLocaleUpperCase() + rest.join('');
}
