import { parseArgs } from 'node:util';
import type { SearchReportRow } from '../../shared/api/search.ts';
import type { Config } from '../../server/config/config.ts';
import { searchReport } from '../../server/features/search/search-analytics.ts';
import { CliError } from '../cli-error.ts';
import { withContext } from '../with-context.ts';

function printRows(title: string, rows: SearchReportRow[], count: (row: SearchReportRow) => number) {
  console.log(title);
  if (rows.length === 0) {
    console.log('  (none yet)');
    return;
  }
  const width = Math.max(...rows.map((row) => String(count(row)).length));
  for (const row of rows) {
    console.log(
      `  ${String(count(row)).padStart(width)}  ${row.query}  (searched ${row.searches}, opened ${row.opened})`,
    );
  }
}

/** The queries visitors type most, and those that found nothing: the articles to write next. */
export async function runSearchReport(args: string[], config: Config): Promise<void> {
  const { values } = parseArgs({ args, options: { limit: { type: 'string' } } });
  const limit = values.limit === undefined ? 20 : Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 500)
    throw new CliError('--limit must be a whole number from 1 to 500');
  const report = await withContext(config, (ctx) => searchReport(ctx.db, limit));
  printRows('Most frequent queries:', report.top, (row) => row.searches);
  console.log('');
  printRows('Queries that found nothing:', report.unanswered, (row) => row.empty_results);
}
