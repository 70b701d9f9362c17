import type { Branding } from '../../shared/api/settings.ts';
import { DEFAULT_TITLES } from '../../shared/default-titles.ts';
import { LogoMark } from '../components/logo-mark.tsx';
import { useI18n } from '../i18n/i18n.tsx';

/** The foot of every public page: the site's name and the links the operator set (branding's footer_links). */
export function Footer({ branding }: { branding: Pick<Branding, 'site_title' | 'footer_links'> }) {
  const { t, lang } = useI18n();
  const siteTitle = branding.site_title || DEFAULT_TITLES[lang].site_title;
  // Our addition to the spec's branding: a server answering only the spec's fields has none.
  const links = branding.footer_links ?? [];
  return (
    <footer className="site-footer">
      <div className="site-footer-inner">
        <p className="site-footer-title">
          <LogoMark />
          {siteTitle}
        </p>
        {links.length > 0 && (
          <nav aria-label={t('footerLinks')}>
            <ul className="site-footer-links">
              {links.map((link, index) => (
                <li key={index}>
                  <a href={link.url}>{link.label}</a>
                </li>
              ))}
            </ul>
          </nav>
        )}
      </div>
    </footer>
  );
}
