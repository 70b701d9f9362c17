import type { Executor } from '../db/database.ts';
import type { RevisionWatch } from '../revisions/revision-watch.ts';
import { getStoredBranding } from '../settings/branding.ts';
import { contentLanguages, type Language, type SiteLanguages } from './languages.ts';
import { listContentLanguages } from './languages.repository.ts';

/**
 * The site's languages as the database holds them: its own (the branding's `lang`, the one place it is read for
 * the rest of the server) and those its content is in.
 */

/** The site's language: the source of every translation and the fallback of every reading. */
export async function siteLanguage(db: Executor): Promise<Language> {
  return (await getStoredBranding(db)).lang;
}

/** The site's language and every language its published content is in, the site's first. */
export async function readSiteLanguages(db: Executor): Promise<SiteLanguages> {
  const [site, found] = await Promise.all([siteLanguage(db), listContentLanguages(db)]);
  return { site, languages: contentLanguages(site, found) };
}

/** The site's languages, read once per revision (which moves with the content and with the branding). */
export interface SiteLanguagesSource {
  /** The languages under `revision` (the current one when not given). */
  load(revision?: string): Promise<SiteLanguages>;
  /** The languages if already read under this revision, else null. */
  known(revision: string): SiteLanguages | null;
}

export function siteLanguagesPerRevision(db: Executor, revisions: RevisionWatch): SiteLanguagesSource {
  let known: { revision: string; languages: SiteLanguages } | null = null;
  let loading: { revision: string; promise: Promise<SiteLanguages> } | null = null;
  return {
    async load(given) {
      const revision = given ?? (await revisions.current());
      if (known?.revision === revision) return known.languages;
      if (loading?.revision !== revision) {
        const promise = readSiteLanguages(db).then((languages) => {
          known = { revision, languages };
          return languages;
        });
        promise.catch(() => {
          if (loading?.promise === promise) loading = null;
        });
        loading = { revision, promise };
      }
      return loading.promise;
    },
    known: (revision) => (known?.revision === revision ? known.languages : null),
  };
}
