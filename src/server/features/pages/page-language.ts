import type { IncomingMessage } from 'node:http';
import type { FastifyRequest } from 'fastify';
import { readCookie } from '../../http/cookies.ts';
import type { Language } from '../../../shared/constants.ts';
import { isLanguage, LANG_COOKIE } from '../../../shared/page-language.ts';
import { BASE_PATH, LANG_PARAM } from '../../../shared/paths.ts';
import {
  acceptedLanguages,
  preferredLanguage,
  type SiteLanguages,
  type SiteLanguagesSource,
} from '../../languages/index.ts';

/** The help centre's pages, whose language the visitor chooses (`?lang=`); the portal's pages are not among them. */
const PAGES_FOLDER = `${BASE_PATH}/`;
export const isLanguagePage = (path: string) => path === BASE_PATH || path.startsWith(PAGES_FOLDER);

/**
 * The language a visitor asking for a page without `?lang=` is sent to, or null to answer it in the site's: their
 * remembered choice (the switcher's cookie) when the help centre has content in it, else the first language of
 * their Accept-Language it has content in. Nobody is sent anywhere on a help centre in one language.
 */
export function negotiatedLanguage(
  request: FastifyRequest | IncomingMessage,
  known: SiteLanguages,
  firstAccepted: (header: string | undefined) => Language | undefined = (header) =>
    acceptedLanguages(header, known.languages)[0],
): Language | null {
  return preferredLanguage(known, readCookie(request, LANG_COOKIE) ?? null, () =>
    firstAccepted(request.headers['accept-language']),
  );
}

/**
 * acceptedLanguages' first for these languages, each Accept-Language value read once: browsers send a handful of
 * them, and the answers from memory ask on every request.
 */
function firstAcceptedOnce(languages: readonly Language[]) {
  const read = new Map<string, Language | undefined>();
  return (header: string | undefined): Language | undefined => {
    if (!header) return undefined;
    if (read.has(header)) return read.get(header);
    const first = acceptedLanguages(header, languages)[0];
    if (read.size < 256) read.set(header, first);
    return first;
  };
}

/** The path and the `lang` values of an address (the page reads the first). */
function splitAddress(url: string): { path: string; lang: string | null } {
  const mark = url.indexOf('?');
  const path = mark < 0 ? url : url.slice(0, mark);
  return { path, lang: mark < 0 ? null : new URLSearchParams(url.slice(mark + 1)).get(LANG_PARAM) };
}

/** The language a page's address asks for (`?lang=`, its first value), if it names one. */
export function askedLanguage(url: string): Language | undefined {
  const { lang } = splitAddress(url);
  return isLanguage(lang) ? lang : undefined;
}

/** Whether the address is a help-centre page that names no language (`?lang=` absent): negotiation chooses one. */
export function namesNoLanguage(url: string): boolean {
  const { path, lang } = splitAddress(url);
  return lang === null && isLanguagePage(path);
}

export interface PageLanguages {
  /** The languages now, read once per content revision. */
  load(): Promise<SiteLanguages>;
  /**
   * Whether an answer kept for this request's address is the one it should get: true for anything but a page
   * without `?lang=`, for which the languages must be known for `revision` (the current one, known fresh) and send
   * nobody elsewhere.
   */
  mayServeFromMemory(request: IncomingMessage, revision: string): boolean;
}

export function createPageLanguages(source: SiteLanguagesSource): PageLanguages {
  // Each Accept-Language value read once per set of languages (the set changes only with a new revision).
  let accepting: { languages: SiteLanguages; firstAccepted: ReturnType<typeof firstAcceptedOnce> } | null =
    null;
  const firstAcceptedIn = (languages: SiteLanguages) => {
    if (accepting?.languages !== languages)
      accepting = { languages, firstAccepted: firstAcceptedOnce(languages.languages) };
    return accepting.firstAccepted;
  };
  return {
    load: () => source.load(),
    mayServeFromMemory(request, revision) {
      const { path, lang } = splitAddress(request.url ?? '/');
      if (lang !== null || !isLanguagePage(path)) return true;
      const known = source.known(revision);
      if (!known) return false;
      return negotiatedLanguage(request, known, firstAcceptedIn(known)) === null;
    },
  };
}

/**
 * What a page's address answers before it is rendered or looked up in memory: an invalid `?lang=` is dropped
 * (301), and a page without one is sent to the visitor's language (302) when negotiation finds one. Null: render.
 */
export async function languageRedirect(
  request: FastifyRequest,
  languages: PageLanguages,
): Promise<{ status: 301 | 302; language: Language | null } | null> {
  const { path, lang } = splitAddress(request.url);
  if (!isLanguagePage(path)) return null;
  if (lang !== null) return isLanguage(lang) ? null : { status: 301, language: null };
  const language = negotiatedLanguage(request, await languages.load());
  return language ? { status: 302, language } : null;
}
