import { Link } from 'react-router';

/** Previous and next under a paged list, with where it stands; nothing when it fits on one page. */
export function Pager({
  page,
  pageCount,
  totalCount,
  hrefOf,
}: {
  page: number;
  pageCount: number;
  totalCount: number;
  /** The address of another page of the same list. */
  hrefOf: (page: number) => string;
}) {
  if (pageCount <= 1) return null;
  return (
    <nav className="pager" aria-label="Pages">
      {page > 1 && <Link to={hrefOf(page - 1)}>Previous</Link>}
      <span>
        Page {page} of {pageCount} ({totalCount} in all)
      </span>
      {page < pageCount && <Link to={hrefOf(page + 1)}>Next</Link>}
    </nav>
  );
}
