import { parseArgs } from 'node:util';
import {
  SEARCH_REPORT_WEEKS,
  SEARCH_REPORT_WEEKS_MAX,
  type SearchReport,
  type SearchReportRow,
} from '../../shared/api/search.ts';
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

function printUnhelpful(report: SearchReport) {
  console.log('Articles readers found unhelpful:');
  if (report.rated_articles === 0) {
    console.log('  (no article has been rated yet)');
    return;
  }
  if (report.unhelpful.length === 0) {
    console.log('  (none: every answer so far was yes)');
    return;
  }
  const width = Math.max(...report.unhelpful.map((row) => String(row.no).length));
  for (const row of report.unhelpful) {
    const draft = row.published ? '' : ', draft';
    console.log(
      `  ${String(row.no).padStart(width)}  ${row.title}  (article ${row.article_id}${draft}: ${row.no} no, ${row.yes} yes)`,
    );
  }
}

/** A plain table: columns padded to their widest cell, numbers to the right. */
function printTable(header: string[], rows: string[][], numeric: boolean[]) {
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) =>
    `  ${cells
      .map((cell, i) => (numeric[i] ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd()}`;
  console.log(line(header));
  for (const row of rows) console.log(line(row));
}

function printAvoided(report: SearchReport) {
  console.log(`Requests avoided by suggested articles (last ${report.weeks} weeks):`);
  if (report.avoided.length === 0) {
    console.log('  (none yet)');
    return;
  }
  const total = report.avoided.reduce((sum, row) => sum + row.avoided, 0);
  printTable(
    ['Week', 'Starts', 'Opened', 'Sent', 'Avoided', 'Article'],
    report.avoided.map((row) => [
      row.week,
      row.week_start,
      String(row.opened),
      String(row.sent),
      String(row.avoided),
      `${row.title} (${row.article_id})`,
    ]),
    [false, false, true, true, true, false],
  );
  console.log(`  Total avoided: ${total}`);
}

const wholeNumber = (value: string | undefined, fallback: number, max: number, name: string) => {
  const number = value === undefined ? fallback : Number(value);
  if (!Number.isInteger(number) || number < 1 || number > max)
    throw new CliError(`--${name} must be a whole number from 1 to ${max}`);
  return number;
};

/**
 * The queries visitors type most, those that found nothing or whose results nobody opened, the articles readers
 * found unhelpful, and the requests suggested articles avoided: the articles to write or mend next.
 */
export async function runSearchReport(args: string[], config: Config): Promise<void> {
  const { values } = parseArgs({ args, options: { limit: { type: 'string' }, weeks: { type: 'string' } } });
  const limit = wholeNumber(values.limit, 20, 500, 'limit');
  const weeks = wholeNumber(values.weeks, SEARCH_REPORT_WEEKS, SEARCH_REPORT_WEEKS_MAX, 'weeks');
  const report = await withContext(config, (ctx) => searchReport(ctx.db, limit, weeks));
  printRows('Most frequent queries:', report.top, (row) => row.searches);
  console.log('');
  printRows('Queries that found nothing:', report.unanswered, (row) => row.empty_results);
  console.log('');
  printRows(
    'Queries whose results nobody opened:',
    report.unopened,
    (row) => row.searches - row.empty_results,
  );
  console.log('');
  printUnhelpful(report);
  console.log('');
  printAvoided(report);
}
