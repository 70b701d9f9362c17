import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import type { PagedList } from '../../../shared/api/common.ts';
import { useI18n } from '../../i18n/i18n.tsx';
import { Spinner } from '../../components/spinner.tsx';

interface Props<T> {
  first: PagedList<T>;
  loadPage: (page: number) => Promise<PagedList<T>>;
  renderItem: (item: T) => ReactNode;
  className: string;
  listClassName: string;
  label: string;
}

/**
 * A list in a scrolling box that fetches the next page when its end comes into view and the current page is not
 * the last. A "show more" button does the same for keyboards and for browsers without IntersectionObserver.
 */
export function InfiniteList<T extends { id: number }>({
  first,
  loadPage,
  renderItem,
  className,
  listClassName,
  label,
}: Props<T>) {
  const { t } = useI18n();
  const [items, setItems] = useState(first.items);
  const [page, setPage] = useState(first._meta.currentPage);
  const [pageCount, setPageCount] = useState(first._meta.pageCount);
  const [loading, setLoading] = useState(false);
  const [failed, setFailed] = useState(false);
  const sentinel = useRef<HTMLDivElement>(null);

  useEffect(() => {
    setItems(first.items);
    setPage(first._meta.currentPage);
    setPageCount(first._meta.pageCount);
  }, [first]);

  const hasMore = page < pageCount;
  const loadMore = useCallback(async () => {
    if (loading || !hasMore) return;
    setLoading(true);
    setFailed(false);
    try {
      const next = await loadPage(page + 1);
      setItems((current) => {
        const known = new Set(current.map((item) => item.id));
        return [...current, ...next.items.filter((item) => !known.has(item.id))];
      });
      setPage(next._meta.currentPage);
      setPageCount(next._meta.pageCount);
    } catch {
      setFailed(true);
    } finally {
      setLoading(false);
    }
  }, [loading, hasMore, loadPage, page]);

  useEffect(() => {
    const target = sentinel.current;
    if (!target || !hasMore || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) void loadMore();
      },
      { rootMargin: '200px' },
    );
    observer.observe(target);
    return () => observer.disconnect();
  }, [hasMore, loadMore]);

  return (
    <div className={className} role="region" aria-label={label} tabIndex={0}>
      <ul className={listClassName}>{items.map((item) => renderItem(item))}</ul>
      <div ref={sentinel} className="list-end" />
      {loading && <Spinner />}
      {failed && (
        <p className="error-text" role="alert">
          {t('errorOccurred')}
        </p>
      )}
      {hasMore && !loading && (
        <button type="button" className="button button-secondary show-more" onClick={() => void loadMore()}>
          {t('showMore')}
        </button>
      )}
    </div>
  );
}
