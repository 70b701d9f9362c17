/** The items in runs of at most `size`: the lists an `in (...)` clause takes stay under every database's limit. */
export function chunks<T>(items: T[], size = 500): T[][] {
  const result: T[][] = [];
  for (let i = 0; i < items.length; i += size) result.push(items.slice(i, i + size));
  return result;
}
