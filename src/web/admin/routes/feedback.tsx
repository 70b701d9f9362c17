import { Link, useLoaderData, useLocation, type LoaderFunctionArgs } from 'react-router';
import type { FeedbackReport, FeedbackReportRow } from '../../../shared/api/feedback.ts';
import type { FeedbackReason } from '../../../shared/feedback.ts';
import { href } from '../../../shared/paths.ts';
import { adminCall } from '../api/admin-api.ts';
import { Pager } from '../components/pager.tsx';
import { usePageTitle } from '../lib/use-page-title.ts';

/** The reasons as visitors read them (in English, the admin app's language). */
const REASON_NAMES: Record<FeedbackReason, string> = {
  answered: 'It answered my question',
  easy_to_understand: 'Easy to understand',
  complete: 'It had everything I needed',
  not_answered: 'Didn’t answer my question',
  hard_to_understand: 'Hard to understand',
  out_of_date: 'Out of date',
  missing: 'Something is missing',
};

const pageOf = (search: string) => {
  const page = Number(new URLSearchParams(search).get('page'));
  return Number.isInteger(page) && page > 1 ? page : 1;
};

const pageHref = (page: number) => (page > 1 ? `?page=${page}` : '.');

export const feedbackLoader = async ({ request }: LoaderFunctionArgs): Promise<FeedbackReport> =>
  adminCall('getFeedbackReport', { query: { page: pageOf(new URL(request.url).search) } });

const percent = (share: number) => `${Math.round(share * 100)}%`;
const answers = (count: number, word: string) => `${count} ${word}`;

function ArticleFeedbackCard({ row, minVotes }: { row: FeedbackReportRow; minVotes: number }) {
  const total = row.yes + row.no;
  const headingId = `feedback-${row.article_id}`;
  return (
    <li className="feedback-card" aria-labelledby={headingId}>
      <div className="feedback-card-head">
        <h2 id={headingId}>
          <Link to={`/articles/${row.article_id}`}>{row.title || `Article ${row.article_id}`}</Link>
          {!row.published && <span className="badge badge-draft">Draft</span>}
        </h2>
        {row.published && (
          <a href={href.instruction(row.article_id)} target="_blank" rel="noopener">
            Public page<span className="visually-hidden"> of {row.title} (opens in a new tab)</span>
          </a>
        )}
      </div>
      <p className="feedback-score">
        <strong>{percent(row.helpful_share)} found it helpful</strong>
        <span>
          {answers(row.yes, 'yes')} · {answers(row.no, 'no')}
        </span>
        {!row.enough_votes && (
          <span className="muted">
            only {answers(total, total === 1 ? 'answer' : 'answers')} so far (ranked once it has {minVotes})
          </span>
        )}
      </p>
      <div className="feedback-bar" aria-hidden="true">
        <span className="feedback-bar-yes" style={{ width: percent(row.helpful_share) }} />
      </div>
      {row.reasons.length > 0 && (
        <>
          <h3>Reasons given</h3>
          <ul className="feedback-reasons">
            {row.reasons.map(({ reason, count }) => (
              <li key={reason}>
                {REASON_NAMES[reason]} <span className="tab-count">{count}</span>
              </li>
            ))}
          </ul>
        </>
      )}
      {row.comments.length > 0 && (
        <>
          <h3>Recent comments</h3>
          <ul className="feedback-comments">
            {row.comments.map((comment, index) => (
              <li key={index}>
                <p className="feedback-comment-text">{comment.comment}</p>
                <p className="muted">
                  {comment.helpful ? 'Yes' : 'No'}
                  {comment.reason && ` · ${REASON_NAMES[comment.reason]}`} · {comment.day}
                </p>
              </li>
            ))}
          </ul>
        </>
      )}
    </li>
  );
}

/** What readers answered to "Was this article helpful?", the articles that help least first. */
export function FeedbackPage() {
  usePageTitle('Feedback');
  const report = useLoaderData() as FeedbackReport;
  const page = pageOf(useLocation().search);
  const { pageCount, totalCount } = report._meta;
  return (
    <div className="feedback-page">
      <h1 tabIndex={-1}>Article feedback</h1>
      <p className="muted">
        What readers answered to “Was this article helpful?”, the least helpful first: articles with at least{' '}
        {report.min_votes} answers by their share of “yes”, then those with fewer. Comments have email
        addresses and long numbers hidden; no reader’s address is kept.
      </p>
      {totalCount === 0 ? (
        <p>No answers yet. Every published article asks its readers at its end.</p>
      ) : (
        <ol className="feedback-list" start={(page - 1) * report._meta.perPage + 1}>
          {report.items.map((row) => (
            <ArticleFeedbackCard key={row.article_id} row={row} minVotes={report.min_votes} />
          ))}
        </ol>
      )}
      <Pager page={page} pageCount={pageCount} totalCount={totalCount} hrefOf={pageHref} />
    </div>
  );
}
