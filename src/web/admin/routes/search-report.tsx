import { useState } from 'react';
import { Link, useLoaderData, useNavigate } from 'react-router';
import type { AdminTree } from '../../../shared/api/admin.ts';
import type { AvoidedRequestsRow, SearchReport, SearchReportRow } from '../../../shared/api/search.ts';
import { adminCall } from '../api/admin-api.ts';
import { SearchPagesNav } from '../components/search-pages-nav.tsx';
import { Field, FormError } from '../components/field.tsx';
import { Modal, ModalActions } from '../components/modal.tsx';
import { TableHead } from '../components/table-head.tsx';
import { articlePlaces, buildForest } from '../lib/tree-model.ts';
import { titleFromQuery } from '../lib/query-title.ts';
import { useFormSubmission } from '../lib/use-form-submission.ts';
import { usePageTitle } from '../lib/use-page-title.ts';
import { TITLE_MAX } from '../../../shared/constants.ts';

/** How many queries and articles each list shows. */
const REPORT_LIMIT = 50;
const REPORT_WEEKS = 12;

interface SearchReportData {
  report: SearchReport;
  tree: AdminTree;
}

export const searchReportLoader = async (): Promise<SearchReportData> => {
  const [report, tree] = await Promise.all([
    adminCall('getSearchReport', { query: { limit: REPORT_LIMIT, weeks: REPORT_WEEKS } }),
    adminCall('getAdminTree'),
  ]);
  return { report, tree };
};

// Dates in the admin's own locale (the browser's); weeks are UTC Mondays, so they are drawn in UTC.
const day = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const weekDays = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', timeZone: 'UTC' });
const count = new Intl.NumberFormat();

function weekRange(row: AvoidedRequestsRow): string {
  const start = new Date(`${row.week_start}T00:00:00Z`);
  const end = new Date(start.getTime() + 6 * 86_400_000);
  return weekDays.formatRange(start, end);
}

interface Place {
  key: string;
  label: string;
  sectionId: number;
  categoryId: number | null;
}

/** Where a new article may go; the first category is the default (a section's top level when there is none). */
function placesOf(tree: AdminTree): Place[] {
  return articlePlaces(buildForest(tree)).map(({ node, label }) => ({
    key: node.key,
    label: node.kind === 'section' ? `${label} (top level)` : label,
    sectionId: node.sectionId,
    categoryId: node.kind === 'category' ? node.id : null,
  }));
}

/** Asks for the title and the place, then makes a draft and opens it in the editor. */
function CreateArticleDialog({
  query,
  places,
  onClose,
}: {
  query: string;
  places: Place[];
  onClose: () => void;
}) {
  const navigate = useNavigate();
  const [title, setTitle] = useState(titleFromQuery(query));
  const [place, setPlace] = useState((places.find((p) => p.categoryId !== null) ?? places[0])?.key ?? '');
  const { errors, setErrors, message, busy, submitWith } = useFormSubmission();
  const submit = submitWith(async () => {
    const chosen = places.find((p) => p.key === place);
    if (!title.trim()) return setErrors({ title: 'Enter a title.' });
    if (!chosen) return setErrors({ section_id: 'Choose where the article goes.' });
    const article = await adminCall('createArticle', {
      body: {
        section_id: chosen.sectionId,
        category_id: chosen.categoryId,
        title: title.trim(),
        published: false,
      },
    });
    await navigate(`/articles/${article.id}`);
  });
  return (
    <Modal title="Create an article for this search" onClose={onClose}>
      <form className="modal-form" noValidate onSubmit={(event) => void submit(event)}>
        <p className="muted">
          Visitors searched for “{query}”. The article is made as a draft and opens in the editor.
        </p>
        <FormError message={message} />
        {places.length === 0 && (
          <p className="form-error">There is no section yet: make one on the Content page first.</p>
        )}
        <Field label="Title" error={errors.title}>
          <input
            type="text"
            value={title}
            maxLength={TITLE_MAX}
            autoFocus
            onChange={(e) => setTitle(e.target.value)}
          />
        </Field>
        <Field label="Place" error={errors.section_id ?? errors.category_id}>
          <select value={place} onChange={(e) => setPlace(e.target.value)}>
            {places.map((p) => (
              <option key={p.key} value={p.key}>
                {p.label}
              </option>
            ))}
          </select>
        </Field>
        <ModalActions onCancel={onClose}>
          <button type="submit" className="button" disabled={busy || places.length === 0}>
            {busy ? 'Creating…' : 'Create draft'}
          </button>
        </ModalActions>
      </form>
    </Modal>
  );
}

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

function ArticleLink({ id, title, published }: { id: number; title: string; published: boolean }) {
  return (
    <>
      <Link to={`/articles/${id}`}>{title || `Article ${id}`}</Link>
      {!published && <span className="badge badge-draft">Draft</span>}
    </>
  );
}

/**
 * What visitors looked for and did not find, what they found and did not open, the articles readers found
 * unhelpful, and the requests articles suggested under the request forms made unnecessary: what to write or mend.
 */
export function SearchReportPage() {
  usePageTitle('Search report');
  const { report, tree } = useLoaderData() as SearchReportData;
  const [creating, setCreating] = useState<string | null>(null);
  const places = placesOf(tree);
  const totalAvoided = report.avoided.reduce((sum, row) => sum + row.avoided, 0);
  const articlesAvoiding = new Set(
    report.avoided.filter((row) => row.avoided > 0).map((row) => row.article_id),
  );
  return (
    <div className="search-report-page">
      <SearchPagesNav />
      <h1 tabIndex={-1}>Search report</h1>
      <p className="muted">
        What visitors searched for in the help centre and what they did with it, to show which articles to
        write or improve. Queries are kept without who asked: email addresses and long numbers are hidden,
        accents and capitals removed.
      </p>

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
              onCreate={setCreating}
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
              onCreate={setCreating}
            />
          </>
        )}
      </section>

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

      <section aria-labelledby="report-avoided">
        <h2 id="report-avoided">Requests avoided</h2>
        <p className="muted">
          While visitors write a request, articles that may answer it are suggested under their message. A
          suggested article opened without the request being sent counts as a request avoided (opened − sent).
        </p>
        {report.avoided.length === 0 ? (
          <p className="report-empty">
            No suggested article has been opened in the last {report.weeks} weeks.
          </p>
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
      {creating !== null && (
        <CreateArticleDialog query={creating} places={places} onClose={() => setCreating(null)} />
      )}
    </div>
  );
}
