import { useEffect, useState } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { MemoryRouter } from 'react-router';
import type { Language } from '../../../../shared/constants.ts';
import { Header } from '../../../layout/header.tsx';
import { I18nProvider } from '../../../i18n/i18n.tsx';
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

/**
 * The public site's own Header, as on its home page, with the branding being edited and the texts of the chosen
 * language. Inert: nothing in it can be focused or clicked, and it is no second banner for screen readers.
 */
function PreviewedHeader({ look }: { look: HeaderLook }) {
  return (
    <MemoryRouter>
      <I18nProvider lang={look.lang}>
        <div lang={look.lang} inert>
          <Header
            isHome
            branding={{
              knowledge_title: look.knowledge_title,
              site_title: look.site_title,
              logo_url: look.logoUrl,
              background_url: look.backgroundUrl,
            }}
            portal={portalLinks(look, { user_portal: look.portal })}
          />
        </div>
      </I18nProvider>
    </MemoryRouter>
  );
}

/**
 * A live preview of the public header: a frame with the public stylesheet, into which React renders as the form
 * changes (a root of its own, with the public site's router and texts, so nothing reloads while typing).
 */
export function HeaderPreview({ look }: { look: HeaderLook }) {
  const [body, setBody] = useState<HTMLElement | null>(null);
  const [root, setRoot] = useState<Root | null>(null);
  const [srcDoc] = useState(() => previewDocument('en', ''));

  useEffect(() => {
    if (!body) return;
    const created = createRoot(body);
    setRoot(created);
    return () => {
      setRoot(null);
      // Not while this root is committing: React refuses to unmount another root synchronously then.
      queueMicrotask(() => created.unmount());
    };
  }, [body]);

  useEffect(() => root?.render(<PreviewedHeader look={look} />));

  return (
    <iframe
      className="header-preview"
      title="Preview of the public header"
      srcDoc={srcDoc}
      onLoad={(event) => setBody(event.currentTarget.contentDocument?.body ?? null)}
    />
  );
}
