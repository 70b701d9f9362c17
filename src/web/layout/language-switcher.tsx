import { useEffect, useRef } from 'react';
import { Link, useLocation } from 'react-router';
import type { Language } from '../../shared/constants.ts';
import { LANG_COOKIE, LANGUAGE_NAMES, withLang } from '../../shared/page-language.ts';
import { useI18n } from '../i18n/i18n.tsx';

const YEAR_SECONDS = 365 * 24 * 60 * 60;

/** The visitor's choice, which the server reads when a page is asked for without `?lang=` (negotiation). */
function rememberLanguage(lang: Language) {
  document.cookie = `${LANG_COOKIE}=${encodeURIComponent(lang)}; path=/; max-age=${YEAR_SECONDS}; samesite=lax`;
}

/**
 * The help centre's languages, each by its own name, each leading to the page being read (the same article,
 * category or search, its query kept) in that language. A disclosure (details/summary): keyboard accessible, and
 * it opens without JavaScript too. Not shown when the content is in one language only.
 */
export function LanguageSwitcher({ languages }: { languages: readonly Language[] }) {
  const { t, lang } = useI18n();
  const location = useLocation();
  const disclosure = useRef<HTMLDetailsElement>(null);

  useEffect(() => {
    if (disclosure.current) disclosure.current.open = false;
  }, [location.pathname, location.search]);
  useEffect(() => {
    const element = disclosure.current;
    if (!element) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || !element.open) return;
      element.open = false;
      element.querySelector('summary')?.focus();
    };
    element.addEventListener('keydown', onKey);
    return () => element.removeEventListener('keydown', onKey);
  }, []);

  if (languages.length < 2) return null;
  const here = `${location.pathname}${location.search}`;
  return (
    <details className="lang-switcher" ref={disclosure}>
      <summary
        className="nav-link lang-summary"
        aria-label={t('languageCurrent', { language: LANGUAGE_NAMES[lang] })}
      >
        <svg
          className="lang-icon"
          viewBox="0 0 24 24"
          width="18"
          height="18"
          aria-hidden="true"
          focusable="false"
        >
          <circle cx="12" cy="12" r="9" fill="none" stroke="currentColor" strokeWidth="1.8" />
          <path
            d="M3 12h18M12 3c2.5 2.7 3.8 5.7 3.8 9s-1.3 6.3-3.8 9c-2.5-2.7-3.8-5.7-3.8-9S9.5 5.7 12 3z"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.8"
          />
        </svg>
        <span className="lang-name">{LANGUAGE_NAMES[lang]}</span>
        <span className="lang-code" aria-hidden="true">
          {lang}
        </span>
      </summary>
      <ul className="lang-menu" aria-label={t('chooseLanguage')}>
        {languages.map((option) => (
          <li key={option}>
            <Link
              className="lang-option"
              to={withLang(here, option)}
              lang={option}
              hrefLang={option}
              aria-current={option === lang ? 'true' : undefined}
              onClick={() => rememberLanguage(option)}
            >
              {LANGUAGE_NAMES[option]}
            </Link>
          </li>
        ))}
      </ul>
    </details>
  );
}
