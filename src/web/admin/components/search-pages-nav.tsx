import { Link, useLocation } from 'react-router';

const PAGES = [
  { to: '/search-report', label: 'Search report' },
  { to: '/search-tuning', label: 'Search tuning' },
] as const;

/** The two search pages under the menu's one Search entry: what visitors searched for, and how search finds. */
export function SearchPagesNav() {
  const { pathname } = useLocation();
  return (
    <nav className="page-tabs" aria-label="Search pages">
      {PAGES.map((page) => (
        <Link key={page.to} to={page.to} aria-current={pathname.startsWith(page.to) ? 'page' : undefined}>
          {page.label}
        </Link>
      ))}
    </nav>
  );
}
