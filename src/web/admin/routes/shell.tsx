import { DEFAULT_TITLES } from '../../../shared/default-titles.ts';
import { useEffect, useId, useRef, useState } from 'react';
import { Link, Outlet, useLocation, useNavigate, useNavigation } from 'react-router';
import { href } from '../../../shared/paths.ts';
import { SIGN_OUT } from '../features/session/session.tsx';
import { useReadyMarker } from '../lib/use-ready-marker.ts';
import { useSession } from '../lib/use-session.ts';

/** The app's pages: administrators see them all, agents the requests only. */
const NAV = [
  {
    to: '/',
    label: 'Content',
    admin: true,
    active: (path: string) => path === '/' || path.startsWith('/articles') || path.startsWith('/categories'),
  },
  {
    to: '/requests',
    label: 'Requests',
    admin: false,
    active: (path: string) => path.startsWith('/requests'),
  },
  { to: '/feedback', label: 'Feedback', admin: true, active: (path: string) => path.startsWith('/feedback') },
  {
    // The search report and search tuning, one entry: SearchPagesNav goes between them.
    to: '/search-report',
    label: 'Search',
    admin: true,
    active: (path: string) => path.startsWith('/search-'),
  },
  {
    to: '/translations',
    label: 'Translations',
    admin: true,
    active: (path: string) => path.startsWith('/translations') || path.startsWith('/sections/'),
  },
  { to: '/branding', label: 'Branding', admin: true, active: (path: string) => path.startsWith('/branding') },
  { to: '/users', label: 'Users', admin: true, active: (path: string) => path.startsWith('/users') },
];

/** After a move to another page, focus goes to its heading, so a screen reader starts reading there. */
function useFocusHeadingOnNavigate() {
  const { pathname } = useLocation();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    document.querySelector<HTMLElement>('#main h1')?.focus();
  }, [pathname]);
}

/**
 * On a phone or a narrower window the pages, the link to the help centre and Sign out fold into a menu under one
 * button (the bar keeps the site's name); it closes on a move to another page, on Escape and on a press outside the
 * bar. Wide windows show them all in the bar.
 */
function useAdminMenu() {
  const { pathname } = useLocation();
  const [open, setOpen] = useState(false);
  useEffect(() => setOpen(false), [pathname]);
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && setOpen(false);
    // Between a phone and a desk the menu drops over the page: a press anywhere else closes it.
    const onPress = (event: PointerEvent) =>
      !(event.target instanceof Element && event.target.closest('.admin-bar')) && setOpen(false);
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPress);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPress);
    };
  }, [open]);
  return [open, setOpen] as const;
}

export function Shell() {
  const { user, branding, routing } = useSession();
  const navigate = useNavigate();
  const navigation = useNavigation();
  const { pathname } = useLocation();
  useFocusHeadingOnNavigate();
  useReadyMarker();
  const [menuOpen, setMenuOpen] = useAdminMenu();
  const menuId = useId();

  return (
    <div className="admin-app">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="admin-bar">
        <p className="admin-brand">
          {branding.site_title || DEFAULT_TITLES[branding.lang].site_title}{' '}
          <span className="admin-brand-tag">admin</span>
        </p>
        <button
          type="button"
          className="admin-menu-button"
          aria-expanded={menuOpen}
          aria-controls={menuId}
          onClick={() => setMenuOpen((open) => !open)}
        >
          <span aria-hidden="true" className="admin-menu-icon" />
          Menu
        </button>
        <div id={menuId} className="admin-menu" data-open={menuOpen}>
          <nav aria-label="Admin">
            <ul className="admin-nav">
              {NAV.filter((item) => user.role === 'admin' || !item.admin).map((item) => (
                <li key={item.to}>
                  <Link to={item.to} aria-current={item.active(pathname) ? 'page' : undefined}>
                    {item.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
          <div className="admin-user">
            <a href={href.home()} target="_blank" rel="noopener">
              <span className="visually-hidden">View the </span>
              Help centre<span aria-hidden="true"> ↗</span>
              <span className="visually-hidden"> (opens in a new tab)</span>
            </a>
            {/* Cut with an ellipsis when long: the whole name on hover. */}
            <span className="admin-user-name" title={user.name}>
              {user.name}
            </span>
            <button
              type="button"
              className="button button-quiet"
              onClick={() => navigate('/sign-in', { state: SIGN_OUT })}
            >
              Sign out
            </button>
          </div>
        </div>
      </header>
      {!routing.email && !routing.webhook && <NobodyHearsOfRequests stored={routing.stored} />}
      <main id="main" className="admin-main" tabIndex={-1} aria-busy={navigation.state === 'loading'}>
        <Outlet />
      </main>
    </div>
  );
}

/**
 * Said on every page while support requests go nowhere but the database: by default nothing tells the team of a
 * new one, and a request nobody reads is worse than none.
 */
function NobodyHearsOfRequests({ stored }: { stored: number }) {
  return (
    <aside className="admin-warning" aria-label="Support requests">
      <p>
        <strong>Support requests reach nobody.</strong>{' '}
        {stored === 0
          ? 'None has been sent yet, and no one will be told when one is.'
          : `${stored} ${stored === 1 ? 'is' : 'are'} kept in the database, and no one is told of new ones.`}{' '}
        Set <code>SMTP_URL</code> on the server (the team is mailed; <code>SUPPORT_EMAIL</code> for one
        address instead) or <code>TICKET_WEBHOOK_URL</code>; until then, they wait here under Requests.
      </p>
    </aside>
  );
}
