import { Link } from 'react-router';
import type { SearchReport } from '../../../../shared/api/search.ts';
import { TableHead } from '../../components/table-head.tsx';
import { count, weekRange } from './report-format.ts';

function ArticleLink({ id, title, published }: { id: number; title: string; published: boolean }) {
  return (
    <>
      <Link to={`/articles/${id}`}>{title || `Article ${id}`}</Link>
      {!published && <span className="badge badge-draft">Draft</span>}
    </>
  );
}

/** The articles readers rated unhelpful, most "No" first. */
export function UnhelpfulSection({ report }: { report: SearchReport }) {
  return (
    <section aria-labelledby="report-unhelpful">
      <h2 id="report-unhelpful">Articles rated unhelpful</h2>
      {report.rated_articles === 0 ? (
        <p className="report-empty">
          No reader has answered “Was this article helpful?” yet. Every published article asks at its end.
        </p>
      ) : report.unhelpful.length === 0 ? (
        <p className="report-empty">Every answer so far was “Yes”.</p>
      ) : (
        <>
          <p className="muted">
            Most “No” answers first. Reasons and comments are on the <Link to="/feedback">Feedback</Link>{' '}
            page.
          </p>
          <div className="table-scroll">
            <table className="data-table data-table-stack report-table">
              <caption className="visually-hidden">Articles rated unhelpful, most “No” first</caption>
              <TableHead columns={['Article', 'No', 'Yes']} numeric={['No', 'Yes']} />
              <tbody>
                {report.unhelpful.map((row) => (
                  <tr key={row.article_id}>
                    <td className="stack-title">
                      <ArticleLink id={row.article_id} title={row.title} published={row.published} />
                    </td>
                    <td data-label="No" className="number">
                      {count.format(row.no)}
                    </td>
                    <td data-label="Yes" className="number">
                      {count.format(row.yes)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}

/** The requests suggested articles made unnecessary, per article and week. */
export function AvoidedSection({ report }: { report: SearchReport }) {
  const totalAvoided = report.avoided.reduce((sum, row) => sum + row.avoided, 0);
  const articlesAvoiding = new Set(
    report.avoided.filter((row) => row.avoided > 0).map((row) => row.article_id),
  );
  return (
    <section aria-labelledby="report-avoided">
      <h2 id="report-avoided">Requests avoided</h2>
      <p className="muted">
        While visitors write a request, articles that may answer it are suggested under their message. A
        suggested article opened without the request being sent counts as a request avoided (opened − sent).
      </p>
      {report.avoided.length === 0 ? (
        <p className="report-empty">No suggested article has been opened in the last {report.weeks} weeks.</p>
      ) : (
        <>
          <p className="report-total">
            <strong>
              {count.format(totalAvoided)} {totalAvoided === 1 ? 'request' : 'requests'} avoided
            </strong>{' '}
            in the last {report.weeks} weeks, by {count.format(articlesAvoiding.size)}{' '}
            {articlesAvoiding.size === 1 ? 'article' : 'articles'}.
          </p>
          <div className="table-scroll">
            <table className="data-table data-table-stack report-table">
              <caption className="visually-hidden">
                Requests avoided per article and week, the latest week first
              </caption>
              <TableHead
                columns={['Article', 'Week', 'Opened', 'Sent after', 'Avoided']}
                numeric={['Opened', 'Sent after', 'Avoided']}
              />
              <tbody>
                {report.avoided.map((row) => (
                  <tr key={`${row.week_start}-${row.article_id}`}>
                    <td className="stack-title">
                      <ArticleLink id={row.article_id} title={row.title} published={row.published} />
                    </td>
                    <td data-label="Week" className="report-week">
                      {weekRange(row)} <span className="muted">({row.week})</span>
                    </td>
                    <td data-label="Opened" className="number">
                      {count.format(row.opened)}
                    </td>
                    <td data-label="Sent after" className="number">
                      {count.format(row.sent)}
                    </td>
                    <td data-label="Avoided" className="number">
                      <strong>{count.format(row.avoided)}</strong>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}
