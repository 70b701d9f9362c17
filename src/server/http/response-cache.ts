import crypto from 'node:crypto';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AUTH_HEADER, SESSION_COOKIE } from '../../shared/constants.ts';
import { endpoints, type Endpoint } from '../../shared/api/endpoints.ts';
import { apiPaths, BASE_PATH, LANG_PARAM, pageQueryParams } from '../../shared/paths.ts';
import { pageCacheHit, pageCacheMiss } from './cache-metrics.ts';
import { readCookie, setsCookie } from './cookies.ts';
import { Doorkeeper } from './doorkeeper.ts';
import type { RevisionWatch } from '../revisions/revision-watch.ts';

/**
 * Public answers (pages under /knowledge and the public GET calls) are kept in memory with their brotli and gzip
 * forms (made once, on first demand), per address (`normalisedUrl`: the path and the parameters the page or call
 * reads, in a set order) and per host only where answers differ by host (`servedHost`): a repeated request is answered from memory with no
 * rendering, no database query and no compression, and a conditional one with 304. Each answer is good for one
 * revision (revisions/revision-watch.ts). When the revision moves, on any server, the answers the change can affect (by
 * their tags, see `cacheTagsOf`) are dropped and the others carried over to the new revision: an edit of one
 * article's text drops that article's page and call, the calls listing bodies and the search answers, nothing else;
 * a change of a title or of the tree drops every answer that shows the tree, not the branding's.
 *
 * Two ways in: while the revision is known fresh, the HTTP server answers a cached request itself before Fastify
 * sees it (`serveFromMemory`, the hot path of a burst of visitors); otherwise Fastify's hooks check the revision,
 * answer from memory when they can, and keep what the routes answer.
 */

/** Paths whose GET answers are the same for every visitor. */
const PUBLIC_PREFIXES = [
  BASE_PATH,
  '/robots.txt',
  '/sitemap.xml',
  '/sitemaps/',
  '/api/knowledge/',
  apiPaths.branding,
  apiPaths.suggestions,
  apiPaths.environments,
];

const CACHED_STATUSES = new Set([200, 301, 302, 303, 307, 308, 404]);

/**
 * Answers to what visitors type, any text: kept from the second time their address is asked (see doorkeeper.ts).
 * Pages and the other calls are as many as the content makes them, and are kept at once.
 */
const askedTwice = (url: string) => url.startsWith(`${apiPaths.suggestions}?`);

/** Headers that belong to one response only, never replayed. */
const PER_RESPONSE = new Set([
  'content-length',
  'content-encoding',
  'date',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'x-request-id',
  'x-cache',
  'etag',
  'cache-control',
  'vary',
]);

export interface CacheOptions {
  /** Entries kept at most, least recently used dropped first. */
  maxEntries: number;
  /** Bytes of bodies (all three forms) kept at most. */
  maxBytes: number;
  /** Seconds a browser or CDN may use an answer without asking again; 0: always ask (answered by 304). */
  maxAge: number;
  /** Whether X-Forwarded-Host is believed (TRUST_PROXY), so answers may differ by it. */
  forwardedHost: boolean;
  /** Hosts whose pages differ from the public host's (ANALYTICS_HOSTS), kept apart; null: one answer for all. */
  separateHosts: readonly string[] | null;
}

export interface CacheStats {
  hits: number;
  misses: number;
  entries: number;
  bytes: number;
}

type Encoding = 'br' | 'gzip' | null;

interface Entry {
  /** Where it is kept (see keyOf). */
  key: string;
  revision: string;
  /** What the answer depends on (see cacheTagsOf). */
  tags: readonly string[];
  status: number;
  /** The route that made it (e.g. /knowledge/*), for metrics of the answers served from memory. */
  route: string;
  etag: string;
  headers: OutgoingHttpHeaders;
  /** The Vary header: Accept-Encoding, after what the route said its answer varies by (a page's language). */
  vary: string;
  identity: Buffer;
  /** Whether the compressed forms are worth having (text, over 512 bytes). */
  compressible: boolean;
  /** Made on the first request that takes them (answers fetched while rendering a page never are), then kept. */
  br: Buffer | null;
  gzip: Buffer | null;
  bytes: number;
  /** Headers as sent, by encoding and for 304 (wireSlot), the request id's place last (see wireHeaders). */
  wire: (string[] | undefined)[];
}

declare module 'fastify' {
  interface FastifyInstance {
    responseCache: ResponseCache;
  }
  interface FastifyRequest {
    responseCache?: { key: string; revision: string };
    /** Set by a route whose answer depends on more than its URL says (a page, on the calls it rendered from). */
    cacheTags?: readonly string[];
  }
}

const ARTICLE_CALL = new RegExp(`^${apiPaths.instructions}/(\\d+)$`);
const NEARBY_CALL = new RegExp(`^${apiPaths.instructions}/\\d+/nearby$`);
const ARTICLE_PAGE = new RegExp(`^${BASE_PATH}/instruction/(\\d+)/?$`);

/**
 * What a public answer depends on, by its URL, in the scopes of touchContent (revisions/revision.repository.ts): `tree` for
 * everything that shows sections, categories or articles (any change of scope `*` drops it), plus the one article,
 * the bodies, search or the branding. A page's answer adds the tags of every call it was rendered from.
 */
export function cacheTagsOf(url: string): string[] {
  const end = url.indexOf('?');
  const path = end < 0 ? url : url.slice(0, end);
  const call = ARTICLE_CALL.exec(path);
  if (call) return ['tree', `article:${call[1]}`];
  if (path === apiPaths.instructions) return end < 0 ? ['tree'] : ['tree', 'bodies'];
  // The related articles it names are what the search finds.
  if (path === apiPaths.suggestions || NEARBY_CALL.test(path)) return ['tree', 'search'];
  if (path === apiPaths.branding || path === apiPaths.environments) return ['branding'];
  // Its lastmod dates follow the bodies; the help centre being on follows the branding.
  if (path === '/sitemap.xml' || path.startsWith('/sitemaps/')) return ['tree', 'bodies', 'branding'];
  if (path === '/robots.txt') return [];
  if (path.startsWith('/api/knowledge/')) return ['tree'];
  const page = ARTICLE_PAGE.exec(path);
  if (page) return ['tree', 'branding', `article:${page[1]}`];
  if (path.startsWith(`${BASE_PATH}/search`)) return ['tree', 'branding', 'search'];
  return ['tree', 'branding'];
}

/** A content write: only the admin API changes what visitors see (visitors' own writes, such as requests, do not). */
const isContentWrite = (url: string) => url.startsWith('/api/admin/');

/**
 * Whether the request carries the session cookie (set at sign-in) or a token: its answer is then one visitor's (their
 * name, content for signed-in visitors), never answered from memory nor kept there.
 */
const carriesSessionCookie = (request: FastifyRequest | IncomingMessage) =>
  readCookie(request, SESSION_COOKIE) !== undefined;

export const carriesSession = (request: FastifyRequest | IncomingMessage) =>
  carriesSessionCookie(request) || Boolean(request.headers[AUTH_HEADER]);

/** Each public prefix as itself and as a folder (what it names, and what lies under it), made once. */
const PUBLIC_FOLDERS = PUBLIC_PREFIXES.map((prefix) => ({
  prefix,
  folder: prefix.endsWith('/') ? prefix : `${prefix}/`,
}));

export function isPublicPath(url: string): boolean {
  const end = url.indexOf('?');
  const path = end < 0 ? url : url.slice(0, end);
  for (const { prefix, folder } of PUBLIC_FOLDERS) {
    if (path === prefix || path.startsWith(folder)) return true;
  }
  return false;
}

/** The query parameters a public GET reads: which ones, and whether only the first value of each counts. */
interface ReadParams {
  /** In the order the contract (or the page table) lists them: the order the search box writes its calls in. */
  names: readonly string[];
  /** A page reads the first value (URLSearchParams.get); a call is validated with all of them (two pages: 400). */
  firstOnly: boolean;
}

const propertyNames = (schema: unknown) =>
  Object.keys((schema as { properties?: Record<string, unknown> } | undefined)?.properties ?? {});

/**
 * What each public GET reads, by path: a call's parameters from its querystring schema in the contract, a page's
 * from pageQueryParams. Paths not named (an article's call, most pages) read the language alone (LANG_ONLY).
 */
const READ_PARAMS = new Map<string, ReadParams>([
  ...Object.values(endpoints as Record<string, Endpoint>)
    .filter((endpoint) => endpoint.method === 'GET' && isPublicPath(endpoint.path))
    .map((endpoint): [string, ReadParams] => [
      endpoint.path,
      { names: propertyNames(endpoint.querystring), firstOnly: false },
    ]),
  ...Object.entries(pageQueryParams).map(([path, names]): [string, ReadParams] => [
    path,
    { names, firstOnly: true },
  ]),
]);

/** What a page or call not named above reads: `?lang=`, whose first value a page reads and a call validates. */
const LANG_ONLY: Record<'page' | 'call', ReadParams> = {
  page: { names: [LANG_PARAM], firstOnly: true },
  call: { names: [LANG_PARAM], firstOnly: false },
};

/** A parameter's name as a query-string parser reads it: `+` is a space, escapes are decoded. */
function paramName(raw: string): string {
  if (!raw.includes('%') && !raw.includes('+')) return raw;
  try {
    return decodeURIComponent(raw.replaceAll('+', ' '));
  } catch {
    return raw;
  }
}

/**
 * The address a public GET is answered for: its path and, of its query, only the parameters its page or call
 * reads, in the order the contract lists them (repeats of a name keep their order), values as sent (a page's first
 * value of each). Fastify routes the request by this address (`publicRequestUrl` is its rewriteUrl), so an answer
 * kept under it cannot depend on anything it leaves out: `?utm_source=...` on any address is the address itself,
 * neither a new entry nor a new render.
 */
export function normalisedUrl(url: string): string {
  const mark = url.indexOf('?');
  if (mark < 0) return url;
  const path = url.slice(0, mark);
  // React Router matches a page with a trailing slash too.
  const read =
    READ_PARAMS.get(path) ??
    (path.endsWith('/') ? READ_PARAMS.get(path.slice(0, -1)) : undefined) ??
    LANG_ONLY[path.startsWith('/api/') ? 'call' : 'page'];
  // On the hot path: one pass, and the URL itself when it is already in this form (as the web client writes it).
  const ranks: number[] = [];
  const kept: string[] = [];
  let changed = false;
  for (let start = mark + 1; start <= url.length;) {
    const ampersand = url.indexOf('&', start);
    const end = ampersand < 0 ? url.length : ampersand;
    const part = url.slice(start, end);
    start = end + 1;
    const equals = part.indexOf('=');
    const raw = equals < 0 ? part : part.slice(0, equals);
    const name = paramName(raw);
    const rank = read.names.indexOf(name);
    if (rank < 0 || (read.firstOnly && ranks.includes(rank))) {
      changed = true;
      continue;
    }
    const written = equals < 0 ? `${name}=` : name === raw ? part : `${name}${part.slice(equals)}`;
    let at = ranks.length;
    while (at > 0 && (ranks[at - 1] as number) > rank) at--;
    if (written !== part || at !== ranks.length) changed = true;
    ranks.splice(at, 0, rank);
    kept.splice(at, 0, written);
  }
  if (!changed) return url;
  return kept.length === 0 ? path : `${path}?${kept.join('&')}`;
}

/** Fastify's rewriteUrl: a public GET is routed, rendered and kept by its normalised address (above). */
export function publicRequestUrl(request: IncomingMessage): string {
  const url = request.url ?? '/';
  if ((request.method !== 'GET' && request.method !== 'HEAD') || !isPublicPath(url)) return url;
  return normalisedUrl(url);
}

/**
 * Which of the hosts whose pages differ (ANALYTICS_HOSTS) a request is served under, or '' for any other host, all
 * of which get the public host's answers: a made-up Host header makes neither an entry nor a render. Behind a
 * trusted proxy, the host is its X-Forwarded-Host (the last value, the proxy's own, as Fastify reads it). The
 * pages decide the snippet by this same function, so what is kept under a host is what that host gets; a client
 * naming another host only chooses which of the operator's own variants it receives.
 */
export function servedHost(
  request: IncomingMessage,
  hosts: readonly string[] | null,
  forwardedHost: boolean,
): string {
  if (!hosts) return '';
  const forwarded = forwardedHost ? request.headers['x-forwarded-host'] : undefined;
  const header = (Array.isArray(forwarded) ? forwarded.at(-1) : forwarded) ?? request.headers.host ?? '';
  const host = header
    .slice(header.lastIndexOf(',') + 1)
    .trim()
    .toLowerCase();
  const name = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.split(':', 1)[0];
  return name && hosts.includes(name) ? name : '';
}

/**
 * What an answer may differ by: the normalised address, and the host where the operator made hosts differ. The
 * address alone is the key of the public host's answers (it begins with `/`, a host's key never does), so most
 * requests look up the URL they came with and build no key.
 */
const keyOf = (request: IncomingMessage, options: CacheOptions) => {
  const url = normalisedUrl(request.url ?? '');
  const host = servedHost(request, options.separateHosts, options.forwardedHost);
  return host ? `${host}\u0000${url}` : url;
};

/** Brotli's window for a body of this size: the smallest power of two that holds it, within brotli's bounds. */
const windowBits = (size: number) =>
  Math.min(
    zlib.constants.BROTLI_MAX_WINDOW_BITS,
    Math.max(zlib.constants.BROTLI_MIN_WINDOW_BITS, Math.ceil(Math.log2(size + 1))),
  );

/**
 * An answer compressed, as well as brotli and gzip can for one that is kept and sent many times, or quickly for one
 * sent once (not kept, or no room to keep anything): on the demo's article page (24.7 KB) brotli's quality 9 takes
 * 345 µs for 5.6 KB and quality 4 takes 147 µs for 6.0 KB.
 */
function compress(body: Buffer, encoding: 'br' | 'gzip', use: 'kept' | 'once'): Buffer {
  return encoding === 'gzip'
    ? zlib.gzipSync(body, options(body, encoding, use))
    : zlib.brotliCompressSync(body, options(body, encoding, use));
}

function options(
  body: Buffer,
  encoding: 'br' | 'gzip',
  use: 'kept' | 'once',
): zlib.BrotliOptions & zlib.ZlibOptions {
  if (encoding === 'gzip') return { level: use === 'kept' ? 9 : 6 };
  return {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: use === 'kept' ? 9 : 4,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      // A window no larger than the answer: the default (4 MiB) allocates tens of MiB per call, which a server
      // compressing every renewed page leaves behind as fragmented native memory.
      [zlib.constants.BROTLI_PARAM_LGWIN]: windowBits(body.length),
    },
  };
}

/** Answers larger than this that are not kept are compressed off the event loop, in Node's thread pool. */
const COMPRESSED_IN_THE_POOL_FROM = 64 * 1024;
/** Answers larger than this that are not kept go as they are. */
const SENT_ONCE_COMPRESSED_UP_TO = 8 * 1024 * 1024;

const compressInThePool = {
  br: promisify(zlib.brotliCompress),
  gzip: promisify(zlib.gzip),
};

/** An answer sent once, compressed quickly: on the event loop when small, in the thread pool when large. */
const compressOnce = async (body: Buffer, encoding: 'br' | 'gzip'): Promise<Buffer> =>
  body.length < COMPRESSED_IN_THE_POOL_FROM
    ? compress(body, encoding, 'once')
    : compressInThePool[encoding](body, options(body, encoding, 'once'));

/**
 * An answer that is not kept (the admin app's and the portal's calls, errors, a signed-in visitor's pages), compressed
 * quickly for a client that takes it, as a kept one is. Not when only the session cookie signed the request in: a
 * page of another site can have the browser send it, with words of its own that the answer repeats, and tell from
 * the compressed sizes whether they match the visitor's own data beside them (BREACH). A header (`x-auth-token`)
 * cannot be sent so, and where it is sent it, not the cookie, is what signs the request in.
 */
async function sentOnce(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload; // streams, nothing
  if (reply.statusCode === 204 || reply.statusCode === 304 || reply.hasHeader('content-encoding'))
    return payload;
  if (carriesSessionCookie(request) && !request.headers[AUTH_HEADER]) return payload;
  const length = Buffer.byteLength(payload);
  if (length <= 512 || length > SENT_ONCE_COMPRESSED_UP_TO || !compressible(reply.getHeader('content-type')))
    return payload;
  const vary = reply.getHeader('vary');
  if (!vary) reply.header('Vary', 'Accept-Encoding');
  else if (!/accept-encoding|\*/i.test(String(vary)))
    reply.header('Vary', `${String(vary)}, Accept-Encoding`);
  const encoding = negotiate(request.headers['accept-encoding']);
  if (!encoding) return payload;
  const body = await compressOnce(Buffer.isBuffer(payload) ? payload : Buffer.from(payload), encoding);
  const etag = reply.getHeader('etag');
  if (typeof etag === 'string' && etag.startsWith('"')) reply.header('ETag', `W/${etag}`);
  reply.header('Content-Encoding', encoding).header('Content-Length', String(body.length));
  return body;
}

/** Browsers send a handful of Accept-Encoding values: each is parsed once. */
const negotiated = new Map<string, Encoding>();

/** The encoding a client prefers among those kept: brotli, then gzip, else none. */
export function negotiate(acceptEncoding: string | undefined): Encoding {
  if (!acceptEncoding) return null;
  const known = negotiated.get(acceptEncoding);
  if (known !== undefined) return known;
  const chosen = parseAcceptEncoding(acceptEncoding);
  if (negotiated.size < 256) negotiated.set(acceptEncoding, chosen);
  return chosen;
}

function parseAcceptEncoding(acceptEncoding: string): Encoding {
  const offered = new Map<string, number>();
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [name = '', ...params] = part.trim().split(';');
    const q = params.map((p) => /^\s*q=([\d.]+)/.exec(p)?.[1]).find(Boolean);
    offered.set(name.trim(), q === undefined ? 1 : Number(q));
  }
  const weight = (name: string) => offered.get(name) ?? offered.get('*') ?? 0;
  if (weight('br') > 0) return 'br';
  if (weight('gzip') > 0) return 'gzip';
  return null;
}

/**
 * An answer's tag in an encoding: each encoding's bytes are another representation, with a tag of its own (a CDN may
 * compare them). A compressed form's is weak: its bytes depend on how it was compressed (quickly for an answer sent
 * once, thoroughly for one kept), though its content does not.
 */
const etagOf = (etag: string, encoding: Encoding) =>
  encoding ? `W/${etag.slice(0, -1)}-${encoding}"` : etag;

/**
 * Whether a conditional request names the answer: any encoding's tag will do, since all of them are the same
 * content, and a cache that kept the plain form may ask on behalf of a client that takes brotli.
 */
const matches = (ifNoneMatch: string | undefined, etag: string) =>
  !!ifNoneMatch &&
  ifNoneMatch.split(',').some((tag) => {
    const given = tag.trim().replace(/^W\//, '');
    return given === '*' || given === etag || given.replace(/-(br|gzip)"$/, '"') === etag;
  });

/** Where an entry keeps its headers for an encoding, and for 304: a number, so no name is built per request. */
const wireSlot = (encoding: Encoding, notModified: boolean) =>
  (encoding === 'br' ? 2 : encoding === 'gzip' ? 4 : 0) + (notModified ? 1 : 0);

const compressible = (type: unknown) =>
  typeof type === 'string' && /^(text\/|application\/json|application\/xml)/.test(type);

export interface ResponseCache {
  /** Answers a request from memory when the revision is known fresh and an answer is kept; false otherwise. */
  serveFromMemory(request: IncomingMessage, response: ServerResponse): boolean;
  stats(): CacheStats;
}

/** Every kept list of headers ends with this name and a place for its value, written for each request. */
const REQUEST_ID_HEADER = 'x-request-id';

export interface ResponseCacheHooks {
  /**
   * A request answered from memory before Fastify saw it (Fastify's own hooks count and log the others), with the
   * route that made the answer, its status, when it began (process.hrtime.bigint) and its id.
   */
  onServedFromMemory?: (
    request: IncomingMessage,
    route: string,
    status: number,
    started: bigint,
    requestId: string,
  ) => void;
  /** The id a request gets (the same rule as Fastify's genReqId). */
  requestId: (request: IncomingMessage) => string;
  /**
   * False when a kept answer may not be the one this request should get, so Fastify's hooks decide (a page asked
   * for without `?lang=` by a visitor the pages would send to their language): consulted before any lookup, with
   * the revision known fresh.
   */
  mayServeFromMemory?: (request: IncomingMessage, revision: string) => boolean;
}

/** One cache: its answers, its figures, and what it was made with. */
interface CacheState {
  entries: Map<string, Entry>;
  stats: CacheStats;
  doorkeeper: Doorkeeper;
  cacheControl: string;
  options: CacheOptions;
  revisions: RevisionWatch;
  hooks: ResponseCacheHooks;
}

/** The least recently used answers go until the cache is within its count and bytes. */
function evict(c: CacheState) {
  while (c.entries.size > c.options.maxEntries || c.stats.bytes > c.options.maxBytes) {
    const oldest = c.entries.keys().next();
    if (oldest.done) break;
    c.stats.bytes -= c.entries.get(oldest.value)?.bytes ?? 0;
    c.entries.delete(oldest.value);
  }
  c.stats.entries = c.entries.size;
}

/** The entry for a request if it was made under this revision; the most recently used go last. */
function find(c: CacheState, key: string, revision: string): Entry | undefined {
  const entry = c.entries.get(key);
  if (!entry || entry.revision !== revision) return undefined;
  c.entries.delete(key);
  c.entries.set(key, entry);
  c.stats.hits++;
  return entry;
}

/** The entry's body in this encoding, compressed now if it is the first request for it. */
function encoded(c: CacheState, entry: Entry, encoding: Encoding): Buffer | null {
  if (!encoding || !entry.compressible) return null;
  let body = entry[encoding];
  if (!body) {
    body = compress(entry.identity, encoding, 'kept');
    entry[encoding] = body;
    entry.bytes += body.length;
    // An answer larger than the room left was dropped as it was kept: its forms count for nothing.
    if (c.entries.get(entry.key) === entry) {
      c.stats.bytes += body.length;
      evict(c);
    }
  }
  return body;
}

/**
 * The headers of a kept answer in one encoding, as a flat list (name, value, ...), made once and kept with it: the
 * hot path hands them to writeHead as they are (copying an object of headers per request cost 5 µs), after writing
 * the request's id into the last place, since writeHead reads the list at once and keeps nothing of it.
 */
function wireHeaders(
  c: CacheState,
  entry: Entry,
  encoding: Encoding,
  notModified: boolean,
  body: Buffer | null,
) {
  const slot = wireSlot(encoding, notModified);
  let list = entry.wire[slot];
  if (!list) {
    list = [];
    for (const [name, value] of Object.entries(entry.headers)) {
      for (const one of Array.isArray(value) ? value : [value]) list.push(name, String(one));
    }
    list.push(
      'etag',
      etagOf(entry.etag, encoding),
      'cache-control',
      c.cacheControl,
      'vary',
      entry.vary,
      'x-cache',
      'hit',
    );
    if (!('x-content-type-options' in entry.headers)) list.push('x-content-type-options', 'nosniff');
    if (encoding && !notModified) list.push('content-encoding', encoding);
    if (body) list.push('content-length', String(body.length));
    list.push(REQUEST_ID_HEADER, '');
    entry.wire[slot] = list;
  }
  return list;
}

/** Status, headers and body for a kept answer, as this request wants it. */
function answer(c: CacheState, entry: Entry, request: IncomingMessage) {
  const encoding = negotiate(request.headers['accept-encoding']);
  const compressed = encoded(c, entry, encoding);
  const used = compressed ? encoding : null;
  if (matches(request.headers['if-none-match'], entry.etag)) {
    return { status: 304, headers: wireHeaders(c, entry, used, true, null), body: null };
  }
  const body = compressed ?? entry.identity;
  return { status: entry.status, headers: wireHeaders(c, entry, used, false, body), body };
}

/** The revision moved: drop what the changes in between can affect, carry the rest over. */
function carryOver(c: CacheState, from: string, to: string, scopes: ReadonlySet<string>) {
  const tree = scopes.has('*');
  for (const [key, entry] of c.entries) {
    const affected = entry.tags.some((tag) => scopes.has(tag) || (tree && tag === 'tree'));
    if (entry.revision === from && !affected) {
      entry.revision = to;
    } else {
      c.entries.delete(key);
      c.stats.bytes -= entry.bytes;
    }
  }
  c.stats.entries = c.entries.size;
}

/** The HTTP server's hot path: a kept answer written straight to the socket, or false for Fastify to answer. */
function serveFromMemory(c: CacheState, request: IncomingMessage, response: ServerResponse): boolean {
  if ((request.method !== 'GET' && request.method !== 'HEAD') || !isPublicPath(request.url ?? ''))
    return false;
  if (carriesSession(request)) return false;
  const revision = c.revisions.peek();
  if (revision === null) return false;
  if (c.hooks.mayServeFromMemory && !c.hooks.mayServeFromMemory(request, revision)) return false;
  const entry = find(c, keyOf(request, c.options), revision);
  if (!entry) return false;
  const started = process.hrtime.bigint();
  const { status, headers, body } = answer(c, entry, request);
  const requestId = c.hooks.requestId(request);
  headers[headers.length - 1] = requestId;
  response.writeHead(status, headers);
  response.end(request.method === 'HEAD' ? undefined : (body ?? undefined));
  pageCacheHit();
  c.hooks.onServedFromMemory?.(request, entry.route, status, started, requestId);
  return true;
}

/** Fastify's onRequest: answer from memory after checking the revision, or mark the request to be kept. */
async function answerKept(c: CacheState, request: FastifyRequest, reply: FastifyReply) {
  if ((request.method !== 'GET' && request.method !== 'HEAD') || !isPublicPath(request.url)) return;
  // A signed-in visitor's pages and calls are theirs: neither answered from nor kept in memory.
  if (carriesSession(request)) return;
  const revision = await c.revisions.current();
  const key = keyOf(request.raw, c.options);
  const entry = find(c, key, revision);
  if (entry) {
    pageCacheHit();
    const { status, headers, body } = answer(c, entry, request.raw);
    // All but the request id's place: the framework sets the id on every answer it sends.
    for (let i = 0; i < headers.length - 2; i += 2) reply.header(headers[i] as string, headers[i + 1]);
    return reply.code(status).send(body ?? undefined);
  }
  c.stats.misses++;
  pageCacheMiss();
  request.responseCache = { key, revision };
}

/** What a route answered, as an entry to keep: its headers but those of one response only, its tag and tags. */
function entryOf(
  request: FastifyRequest,
  reply: FastifyReply,
  state: { key: string; revision: string },
  identity: Buffer,
): Entry {
  const headers: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value !== undefined && !PER_RESPONSE.has(name)) headers[name] = value;
  }
  return {
    key: state.key,
    revision: state.revision,
    tags: request.cacheTags ?? cacheTagsOf(request.url),
    status: reply.statusCode,
    route: request.routeOptions.url ?? request.url,
    etag: `"${crypto.createHash('sha1').update(identity).digest('base64url').slice(0, 22)}"`,
    headers,
    vary: reply.hasHeader('vary') ? `${String(reply.getHeader('vary'))}, Accept-Encoding` : 'Accept-Encoding',
    identity,
    compressible: compressible(reply.getHeader('content-type')) && identity.length > 512,
    br: null,
    gzip: null,
    bytes: identity.length,
    wire: [],
  };
}

/** Fastify's onSend: keep what the routes answer (when it may be kept), and send it tagged and compressed. */
async function keepAnswer(c: CacheState, request: FastifyRequest, reply: FastifyReply, payload: unknown) {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    // A content write through this server: its author (and everyone) sees it on the next request.
    if (reply.statusCode < 400 && isContentWrite(request.url)) c.revisions.invalidate();
    return payload;
  }
  if (carriesSession(request) && (isPublicPath(request.url) || request.url.startsWith('/api/'))) {
    // Nor kept by a browser's shared cache or a CDN.
    reply.header('Cache-Control', 'private, no-store');
    return sentOnce(request, reply, payload);
  }
  const state = request.responseCache;
  if (
    !state ||
    !CACHED_STATUSES.has(reply.statusCode) ||
    setsCookie(reply) ||
    /no-store/.test(String(reply.getHeader('cache-control') ?? ''))
  )
    return sentOnce(request, reply, payload);
  if (payload !== undefined && payload !== null && typeof payload !== 'string' && !Buffer.isBuffer(payload)) {
    return payload; // streams are not kept
  }
  const entry = entryOf(request, reply, state, Buffer.from(payload ?? ''));
  c.stats.bytes -= c.entries.get(state.key)?.bytes ?? 0;
  c.entries.delete(state.key);
  if (!askedTwice(request.url) || c.doorkeeper.metBefore(state.key)) {
    c.stats.bytes += entry.bytes;
    c.entries.set(state.key, entry);
    evict(c);
  }
  return sendFirst(c, request, reply, payload, entry);
}

/** The answer just made, as this request wants it: 304, or compressed (once, or in the form kept). */
async function sendFirst(
  c: CacheState,
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  entry: Entry,
) {
  const encoding = entry.compressible ? negotiate(request.headers['accept-encoding']) : null;
  const kept = c.entries.get(entry.key) === entry;
  const etag = etagOf(entry.etag, encoding);
  reply.header('ETag', etag).header('Cache-Control', c.cacheControl).header('Vary', entry.vary);
  reply.header('X-Cache', 'miss');
  if (matches(request.headers['if-none-match'], entry.etag)) {
    reply.code(304);
    return '';
  }
  if (!encoding) return payload;
  const compressed = kept
    ? (encoded(c, entry, encoding) as Buffer)
    : await compressOnce(entry.identity, encoding);
  reply.header('Content-Encoding', encoding as string).header('Content-Length', String(compressed.length));
  return compressed;
}

/** The cache, and the Fastify hooks that fill it and answer from it. */
export function createResponseCache(
  revisions: RevisionWatch,
  options: CacheOptions,
  hooks: ResponseCacheHooks,
) {
  const c: CacheState = {
    entries: new Map(),
    stats: { hits: 0, misses: 0, entries: 0, bytes: 0 },
    doorkeeper: new Doorkeeper(),
    cacheControl: options.maxAge > 0 ? `public, max-age=${options.maxAge}` : 'public, no-cache',
    options,
    revisions,
    hooks,
  };
  revisions.onChange((from, to, scopes) => carryOver(c, from, to, scopes));
  const cache: ResponseCache = {
    serveFromMemory: (request, response) => serveFromMemory(c, request, response),
    stats: () => ({ ...c.stats, entries: c.entries.size }),
  };
  /** Fastify's part: answer from memory after checking the revision, and keep what the routes answer. */
  const register = (app: FastifyInstance) => {
    app.addHook('onRequest', async (request, reply) => answerKept(c, request, reply));
    app.addHook('onSend', async (request, reply, payload) => keepAnswer(c, request, reply, payload));
  };
  return { ...cache, register };
}
