import { useState } from 'react';
import { createPortal } from 'react-dom';
import type { Language } from '../../../../shared/constants.ts';
import { createTranslator } from '../../../i18n/i18n.tsx';
import { portalLinks } from '../../../lib/portal-links.ts';
import { previewDocument } from '../../lib/public-styles.ts';

export interface HeaderLook {
  knowledge_title: string;
  site_title: string;
  lang: Language;
  portal_enabled: boolean;
  /** The environments' user_portal: null when there is no portal to link to. */
  portal: string | null;
  logoUrl: string | null;
  backgroundUrl: string | null;
}

/** The public header's markup with the public stylesheet and the public texts of the chosen language. */
function PublicHeader({ look }: { look: HeaderLook }) {
  const t = createTranslator(look.lang);
  const links = portalLinks(look, { user_portal: look.portal });
  return (
    <div lang={look.lang}>
      {/* A div, not a header: the admin page has its own banner landmark. */}
      <div
        className="site-header"
        style={
          look.backgroundUrl ? { backgroundImage: `url(${JSON.stringify(look.backgroundUrl)})` } : undefined
        }
      >
        <div className="header-bar">
          <span className="logo-link">
            {look.logoUrl ? (
              <img
                className="logo"
                src={look.logoUrl}
                alt={t('logoAlt', { title: look.site_title })}
                height={40}
              />
            ) : (
              <span className="logo-text">{look.site_title}</span>
            )}
          </span>
          <span className="nav-wide">
            <span className="nav-link">{t('main')}</span>
            {links.tickets && <span className="nav-link">{t('tickets')}</span>}
            {links.signIn && <span className="nav-link">{t('signIn')}</span>}
          </span>
        </div>
        <div className="hero">
          <p className="hero-title">{look.knowledge_title || t('knowledgeTitle')}</p>
          <div className="search-box">
            <div className="search-input" style={{ color: '#6b7280' }}>
              {t('searchPlaceholder')}
            </div>
          </div>
        </div>
      </div>
    </div>
  );
}

/**
 * A live preview of the public header: a frame with the public stylesheet, into which React renders as the form
 * changes (a portal, so nothing reloads while typing). It has nothing to focus or click.
 */
export function HeaderPreview({ look }: { look: HeaderLook }) {
  const [body, setBody] = useState<HTMLElement | null>(null);
  const [srcDoc] = useState(() => previewDocument('en', ''));
  return (
    <>
      <iframe
        className="header-preview"
        title="Preview of the public header"
        srcDoc={srcDoc}
        onLoad={(event) => setBody(event.currentTarget.contentDocument?.body ?? null)}
      />
      {body && createPortal(<PublicHeader look={look} />, body)}
    </>
  );
}
