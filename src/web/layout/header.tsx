import { useEffect, useLayoutEffect, useState, type ReactNode } from 'react';
import { href } from '../../shared/paths.ts';
import { Link, useLocation } from 'react-router';
import type { Branding } from '../../shared/api/settings.ts';
import { DEFAULT_TITLES } from '../../shared/default-titles.ts';
import { useI18n } from '../i18n/i18n.tsx';
import type { PortalLinks } from '../lib/portal-links.ts';
import { LogoMark } from '../components/logo-mark.tsx';
import { SearchBox } from '../features/search/search-box.tsx';
import { useAuth } from '../api/use-auth.tsx';
import { LanguageSwitcher } from './language-switcher.tsx';

/**
 * The narrow menu's id. Ids are our own, not `useId`'s: the server renders with React and the public site's browser
 * build hydrates with Preact, whose `useId` gives other ids (see docs/decisions.md, "First-load JavaScript"). A page
 * has one header.
 */
const MENU_ID = 'site-menu';

/** What the header shows of the branding: the layout's, or the one being edited in the admin's preview. */
export type HeaderBranding = Pick<
  Branding,
  'knowledge_title' | 'site_title' | 'logo_url' | 'background_url'
> &
  Pick<Partial<Branding>, 'languages'>;

interface HeaderProps {
  isHome: boolean;
  branding: HeaderBranding;
  portal: PortalLinks;
  /** The search box, which leads into the knowledge base: not shown where there is none to search. */
  search?: boolean;
}

/**
 * Header with background, logo, navigation, title and search. Wide screens show the links inline; below 720 px
 * they move into a burger menu (when it holds more than the main link), and the page behind does not scroll while
 * it is open.
 */
export function Header({ isHome, branding, portal, search = true }: HeaderProps) {
  const { t, lang, localHref } = useI18n();
  const { user, exit } = useAuth();
  const location = useLocation();
  const [menuOpen, setMenuOpen] = useMenu(location.pathname);
  const initialQuery =
    location.pathname === href.search() ? (new URLSearchParams(location.search).get('query') ?? '') : '';
  // The server fills in untitled branding; the admin app's preview shows an empty field as the default too.
  const defaults = DEFAULT_TITLES[lang];
  const title = branding.knowledge_title || defaults.knowledge_title;
  const siteTitle = branding.site_title || defaults.site_title;
  const signIn = portal.signIn && (
    <a className="nav-link" href={portal.signIn}>
      {t('signIn')}
    </a>
  );
  // A menu holding only the main link, which the logo already is, would be a button that offers nothing.
  const hasMenu = Boolean(user || portal.tickets || portal.createIssue || portal.signIn);

  return (
    <header
      className="site-header"
      style={
        branding.background_url
          ? { backgroundImage: `url(${JSON.stringify(branding.background_url)})` }
          : undefined
      }
    >
      <div className="header-bar">
        <Link to={localHref(href.home())} className="logo-link">
          {branding.logo_url ? (
            <img
              className="logo"
              src={branding.logo_url}
              alt={t('logoAlt', { title: siteTitle })}
              height={40}
            />
          ) : (
            <span className="logo-text">
              <LogoMark />
              {siteTitle}
            </span>
          )}
        </Link>
        <nav className="nav-wide" aria-label={t('main')}>
          <Link className="nav-link" to={localHref(href.home())}>
            {t('main')}
          </Link>
          {portal.tickets && (
            <a className="nav-link" href={portal.tickets}>
              {t('tickets')}
            </a>
          )}
          {user ? (
            <>
              {portal.profile ? (
                <a className="nav-link nav-user" href={portal.profile} title={t('profile')}>
                  {user.name}
                </a>
              ) : (
                <span className="nav-user">{user.name}</span>
              )}
              <button type="button" className="nav-link nav-button" onClick={exit}>
                {t('exit')}
              </button>
            </>
          ) : (
            signIn
          )}
        </nav>
        <LanguageSwitcher languages={branding.languages ?? []} />
        {hasMenu && (
          <button
            type="button"
            className="burger"
            aria-expanded={menuOpen}
            aria-controls={MENU_ID}
            aria-label={menuOpen ? t('closeMenu') : t('menu')}
            onClick={() => setMenuOpen((open) => !open)}
          >
            <span aria-hidden="true" className="burger-icon" />
          </button>
        )}
      </div>
      {hasMenu && <NarrowMenu portal={portal} signIn={signIn} open={menuOpen} />}
      <div className="hero">
        {isHome ? <h1 className="hero-title">{title}</h1> : <p className="hero-title">{title}</p>}
        {search && <SearchBox initialQuery={initialQuery} />}
      </div>
    </header>
  );
}

/** Whether the narrow menu is open: closed on each new page and by Escape; the page behind does not scroll. */
function useMenu(pathname: string) {
  const [menuOpen, setMenuOpen] = useState(false);
  useEffect(() => setMenuOpen(false), [pathname]);
  // In the commit that opens or closes the menu, not a frame later: Preact runs passive effects after paint, where
  // React runs them at once after a click.
  useLayoutEffect(() => {
    document.body.classList.toggle('menu-open', menuOpen);
    if (!menuOpen) return;
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && setMenuOpen(false);
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [menuOpen]);
  return [menuOpen, setMenuOpen] as const;
}

/** The burger menu's links, below 720 px. */
function NarrowMenu({ portal, signIn, open }: { portal: PortalLinks; signIn: ReactNode; open: boolean }) {
  const { t, localHref } = useI18n();
  const { user, exit } = useAuth();
  return (
    <nav id={MENU_ID} className="nav-narrow" hidden={!open} aria-label={t('menu')}>
      <ul>
        <li>
          <Link className="nav-link" to={localHref(href.home())}>
            {t('main')}
          </Link>
        </li>
        {portal.tickets && (
          <li>
            <a className="nav-link" href={portal.tickets}>
              {t('tickets')}
            </a>
          </li>
        )}
        {portal.createIssue && (
          <li>
            <a className="nav-link" href={portal.createIssue}>
              {t('makeRequest')}
            </a>
          </li>
        )}
        {user ? (
          <li className="nav-user-row">
            <span className="nav-user">{user.name}</span>
            <button type="button" className="nav-link nav-button" onClick={exit}>
              {t('exit')}
            </button>
          </li>
        ) : (
          signIn && <li>{signIn}</li>
        )}
      </ul>
    </nav>
  );
}
