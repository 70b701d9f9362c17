import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Endpoint } from '../../shared/api/endpoints.ts';
import type { Executor } from '../db/database.ts';
import { route, type AnswerOf, type EndpointRequest, type Session } from '../http/route.ts';
import {
  readingOf,
  siteLanguagesPerRevision,
  type Language,
  type Reading,
  type SiteLanguagesSource,
} from '../languages/index.ts';
import type { RevisionWatch } from '../revisions/revision-watch.ts';
import type { UserRow } from '../db/tables.ts';
import { audienceOf, type Audience } from './visibility.ts';

/**
 * What a public request reads, resolved once where it comes in (readerRoute) from its address and its caller: the
 * language it asked for (`?lang=`, else the site's) with the site's as the fallback, who reads (the audience), and
 * the content revision it is answered under. Every knowledge, search and branding handler and service takes this
 * one value; none reads `?lang=` or the session again.
 */
export interface Reader extends Reading {
  audience: Audience;
  revision: string;
}

export interface Readers {
  /** The reader of a request that asked for `lang` (checked by the contract), made by `user` (none: anonymous). */
  readerOf(lang: Language | undefined, user: Pick<UserRow, 'email_verified_at'> | null | undefined): Promise<Reader>;
  /** The site's languages, read once per revision (the switcher's list, negotiation). */
  languages: SiteLanguagesSource;
}

export function createReaders({ db, revisions }: { db: Executor; revisions: RevisionWatch }): Readers {
  const languages = siteLanguagesPerRevision(db, revisions);
  return {
    languages,
    async readerOf(lang, user) {
      const revision = await revisions.current();
      const { site } = await languages.load(revision);
      return { ...readingOf(lang, site), audience: audienceOf(user), revision };
    },
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Set once by the app, before any route that reads content is registered. */
    readers: Readers;
  }
}

/** A call whose query names the language it is read in (the contract's LangQuery). */
type ReadEndpoint = Endpoint & { method: 'GET' };

/**
 * Registers a public read of the contract (see route()) whose handler takes the request's Reader, resolved here once
 * from the query's `lang` and the caller's session.
 */
export function readerRoute<E extends ReadEndpoint>(
  app: FastifyInstance,
  endpoint: E,
  handler: (reader: Reader, request: EndpointRequest<E>, reply: FastifyReply) => Promise<AnswerOf<E>>,
): void {
  if (!app.hasDecorator('readers')) {
    throw new Error(`${endpoint.method} ${endpoint.path} reads content; no readers are registered`);
  }
  route(app, endpoint, async (request, reply, session) => {
    const { lang } = request.query as { lang?: Language };
    const user = (session as Session | null)?.user;
    return handler(await app.readers.readerOf(lang, user), request, reply);
  });
}
