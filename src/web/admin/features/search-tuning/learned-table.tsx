import { useState } from 'react';
import { Link } from 'react-router';
import type { LearnedRow } from '../../../../shared/api/synonyms.ts';
import { adminCall } from '../../api/admin-api.ts';
import { FormError } from '../../components/field.tsx';
import { Modal, ModalActions } from '../../components/modal.tsx';
import { TableHead } from '../../components/table-head.tsx';
import { messageOf } from '../../lib/errors.ts';

const decimal = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 2 });
const votesFormat = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 1 });

/** How much the article rises for the query: "×1.8", or "Not yet" while its votes are too few. */
const boostOf = (factor: number) => (factor > 1 ? `×${decimal.format(factor)}` : 'Not yet');

/**
 * What search learned from the articles visitors opened after searching: a row per query and article, strongest
 * first. Forgetting a query forgets all its articles' votes.
 */
export function LearnedTable({ initial, limit }: { initial: LearnedRow[]; limit: number }) {
  const [rows, setRows] = useState(initial);
  const [status, setStatus] = useState('');
  const [message, setMessage] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);

  const forget = async (query?: string) => {
    setMessage(null);
    try {
      await adminCall('resetSearchLearning', { query: query === undefined ? {} : { query } });
      setRows((current) => (query === undefined ? [] : current.filter((row) => row.query !== query)));
      setStatus(
        query === undefined
          ? 'Search has forgotten everything it learned.'
          : `Search has forgotten “${query}”.`,
      );
    } catch (error) {
      setMessage(messageOf(error));
    }
  };

  return (
    <>
      <FormError message={message} />
      <p className="visually-hidden" role="status">
        {status}
      </p>
      {rows.length === 0 ? (
        <p className="learned-empty">Nothing learned yet: no visitor has opened an article from a search.</p>
      ) : (
        <>
          <div className="table-scroll">
            <table className="data-table data-table-stack learned-table">
              <caption className="visually-hidden">Articles visitors chose, by query</caption>
              <TableHead columns={['Query', 'Article', 'Votes', 'Boost']} actions />
              <tbody>
                {rows.map((row) => (
                  <tr key={`${row.query}\n${row.article_id}`}>
                    <td className="stack-title">
                      <span className="learned-query">{row.query}</span>
                    </td>
                    <td data-label="Article">
                      <Link to={`/articles/${row.article_id}`}>
                        {row.title || `Article ${row.article_id}`}
                      </Link>
                    </td>
                    <td data-label="Votes">{votesFormat.format(row.votes)}</td>
                    <td data-label="Boost">{boostOf(row.factor)}</td>
                    <td className="row-actions">
                      <button
                        type="button"
                        className="tool"
                        aria-label={`Forget “${row.query}”`}
                        onClick={() => void forget(row.query)}
                      >
                        Forget
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {rows.length >= limit && <p className="muted">The {limit} strongest are shown.</p>}
          <p>
            <button type="button" className="button button-secondary" onClick={() => setConfirming(true)}>
              Forget everything
            </button>
          </p>
        </>
      )}
      {confirming && (
        <Modal title="Forget everything search learned?" onClose={() => setConfirming(false)}>
          <p>
            Every query’s votes are deleted, and articles rank by their words alone until visitors choose
            again. This cannot be undone.
          </p>
          <ModalActions onCancel={() => setConfirming(false)}>
            <button
              type="button"
              className="button button-danger"
              onClick={() => {
                setConfirming(false);
                void forget();
              }}
            >
              Forget everything
            </button>
          </ModalActions>
        </Modal>
      )}
    </>
  );
}
