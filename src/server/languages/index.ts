/**
 * The languages domain: the one home of the server's language rules (languages.ts) and of the site's language and
 * the languages its content is in (site-languages.ts). The rest of the server imports this index, never its files.
 */
export {
  acceptedLanguages,
  byLanguageOrder,
  chooseVersion,
  contentLanguages,
  isLanguage,
  ownLanguage,
  preferredLanguage,
  readingOf,
  type Language,
  type Reading,
  type SiteLanguages,
} from './languages.ts';
export {
  readSiteLanguages,
  siteLanguage,
  siteLanguagesPerRevision,
  type SiteLanguagesSource,
} from './site-languages.ts';
