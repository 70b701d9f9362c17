import type { SearchReport, SearchReportRow } from '../../../../shared/api/search.ts';
import { TableHead } from '../../components/table-head.tsx';
import { count, day } from './report-format.ts';

function QueryTable({
  caption,
  rows,
  found,
  onCreate,
}: {
  caption: string;
  rows: SearchReportRow[];
  /** Shows how many searches found something, for queries whose results nobody opened. */
  found?: boolean;
  onCreate: (query: string) => void;
}) {
  return (
    <div className="table-scroll">
      <table className="data-table data-table-stack report-table">
        <caption className="visually-hidden">{caption}</caption>
        <TableHead
          columns={['Query', found ? 'Searches with results' : 'Searches', 'Last searched']}
          numeric={['Searches with results', 'Searches']}
          actions
        />
        <tbody>
          {rows.map((row) => (
            <tr key={row.query}>
              <td className="stack-title report-query">{row.query}</td>
              <td data-label={found ? 'With results' : 'Searches'} className="number">
                {count.format(found ? row.searches - row.empty_results : row.empty_results)}
              </td>
              <td data-label="Last searched">{day.format(new Date(row.last_searched_at))}</td>
              <td className="row-actions">
                <button
                  type="button"
                  className="tool"
                  aria-label={`Create an article for “${row.query}”`}
                  onClick={() => onCreate(row.query)}
                >
                  Create article
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The searches that found nothing and those whose results nobody opened, each query one click from an article. */
export function SearchesSections({
  report,
  onCreate,
}: {
  report: SearchReport;
  onCreate: (query: string) => void;
}) {
  return (
    <>
      <section aria-labelledby="report-unanswered">
        <h2 id="report-unanswered">Searches that found nothing</h2>
        {report.unanswered.length === 0 ? (
          <p className="report-empty">Every search so far found at least one article.</p>
        ) : (
          <>
            <p className="muted">Most frequent first: the articles visitors miss.</p>
            <QueryTable
              caption="Searches that found nothing, most frequent first"
              rows={report.unanswered}
              onCreate={onCreate}
            />
          </>
        )}
      </section>

      <section aria-labelledby="report-unopened">
        <h2 id="report-unopened">Searches whose results nobody opened</h2>
        {report.unopened.length === 0 ? (
          <p className="report-empty">
            No such search yet: visitors opened a result of every search that found one.
          </p>
        ) : (
          <>
            <p className="muted">
              Articles were found, but none was opened: their titles may not answer what was asked.
            </p>
            <QueryTable
              caption="Searches whose results nobody opened, most frequent first"
              rows={report.unopened}
              found
              onCreate={onCreate}
            />
          </>
        )}
      </section>
    </>
  );
}
