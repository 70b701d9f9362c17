import type { FastifyInstance } from 'fastify';
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

type Visitor = Pick<UserRow, 'email_verified_at'> | null | undefined;

/**
 * What a page reads as, resolved once as its request comes in: its visitor's Reader, for the reads that identify
 * their caller, and the same reading as anyone, for those that do not (an endpoint's `identifies`, as route() holds
 * it over HTTP).
 */
export interface PageReaders {
  visitor: Reader;
  anonymous: Reader;
}

/** What a read's handler is given of its request: the values of its address, held to the contract. */
export type ReadRequest<E extends Endpoint> = Pick<EndpointRequest<E>, 'params' | 'query'>;

/** Where a read's handler says how its answer may be kept (Cache-Control), as it would on a reply. */
export interface ReadReply {
  header(name: string, value: string): unknown;
}

export type ReadHandler<E extends Endpoint> = (
  reader: Reader,
  request: ReadRequest<E>,
  reply: ReadReply,
) => Promise<AnswerOf<E>>;

export interface Readers {
  /** The reader of a request that asked for `lang` (checked by the contract), made by `user` (none: anonymous). */
  readerOf(lang: Language | undefined, user: Visitor): Promise<Reader>;
  /** The readers of a page that asked for `lang`, visited by `user`: one revision, one reading, two audiences. */
  pageReadersOf(lang: Language | undefined, user: Visitor): Promise<PageReaders>;
  /** The site's languages, read once per revision (the switcher's list, negotiation). */
  languages: SiteLanguagesSource;
  /**
   * Each public read by its endpoint, as readerRoute registered it: a page rendered on the server answers its own
   * reads with these and the page's readers, in process (render/page-calls.ts).
   */
  reads: Map<Endpoint, ReadHandler<Endpoint>>;
}

export function createReaders({ db, revisions }: { db: Executor; revisions: RevisionWatch }): Readers {
  const languages = siteLanguagesPerRevision(db, revisions);
  const readerOf = async (lang: Language | undefined, user: Visitor): Promise<Reader> => {
    const revision = await revisions.current();
    const { site } = await languages.load(revision);
    return { ...readingOf(lang, site), audience: audienceOf(user), revision };
  };
  return {
    languages,
    readerOf,
    async pageReadersOf(lang, user) {
      const visitor = await readerOf(lang, user);
      return { visitor, anonymous: user ? { ...visitor, audience: audienceOf(null) } : visitor };
    },
    reads: new Map(),
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
export function readerRoute<E extends ReadEndpoint>(app: FastifyInstance, endpoint: E, handler: ReadHandler<E>): void {
  if (!app.hasDecorator('readers')) {
    throw new Error(`${endpoint.method} ${endpoint.path} reads content; no readers are registered`);
  }
  // A read anyone may make, counted against no limit, is one a page can make in process with its own readers.
  if (endpoint.role === 'public' && !endpoint.rateLimit && endpoint.response !== 'stream')
    app.readers.reads.set(endpoint, handler as ReadHandler<Endpoint>);
  route(app, endpoint, async (request, reply, session) => {
    const { lang } = request.query as { lang?: Language };
    const user = (session as Session | null)?.user;
    return handler(await app.readers.readerOf(lang, user), request, reply);
  });
}
