import type { IncomingMessage } from 'node:http';
import { fastifyCookie, type CookieSerializeOptions, type ParseOptions } from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * Every cookie the server reads or writes goes through here. The Cookie header is parsed once per request by
 * @fastify/cookie, registered where the app is built (registerCookies), before every other hook that reads one (the
 * page language's and the answer cache's); a request answered before Fastify sees it is read by the same parser with
 * the same options (cookiesOf). A value comes as the browser sent it, not URI-decoded, since each reader checks its
 * own form (a token, a signature) and one spelt with escapes is not ours.
 * Every Set-Cookie is written by setCookie, with our defaults: HttpOnly always (no script of ours reads a cookie),
 * Secure when the public address is https, and the attributes in one order (name, Path, HttpOnly, SameSite,
 * Max-Age, Secure). The package's own writer orders them otherwise; ours is what the answers have always carried.
 */

/** A cookie to set: where it is sent, for how long (seconds; 0 removes it), and to which sites' requests. */
export interface Cookie {
  name: string;
  value: string;
  path: string;
  maxAge: number;
  sameSite: 'Lax' | 'Strict';
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Whether the cookies set carry Secure: the help centre is served over https (PUBLIC_URL). */
    secureCookies: boolean;
  }
}

const PARSE_OPTIONS: ParseOptions = { decode: (value) => value };

/** Parses the Cookie header of every request (request.cookies) and fixes whether cookies are Secure. */
export async function registerCookies(app: FastifyInstance, publicUrl: string): Promise<void> {
  app.decorate('secureCookies', publicUrl.startsWith('https:'));
  // The plugin hands parseOptions to its parser (which reads `decode`), though its types name them the writer's.
  await app.register(fastifyCookie, { parseOptions: PARSE_OPTIONS as CookieSerializeOptions });
}

/**
 * The cookies of a request: those @fastify/cookie parsed, or, for a request Fastify has not seen (the answers kept
 * in memory are looked up before it) or whose hooks did not run, its header read by the same parser. The parser is
 * loaded when the plugin is registered, so this is for requests to a built app.
 */
export function cookiesOf(request: FastifyRequest | IncomingMessage): Record<string, string | undefined> {
  if ('raw' in request && request.cookies) return request.cookies;
  const header = request.headers.cookie;
  return header ? fastifyCookie.parse(header, PARSE_OPTIONS) : {};
}

/** The value of one cookie of the request (the first, if it came twice), or undefined. */
export const readCookie = (request: FastifyRequest | IncomingMessage, name: string): string | undefined =>
  cookiesOf(request)[name];

/** The request's cookies as one Cookie header, for the calls made in process on the visitor's behalf. */
export const cookieHeaderOf = (request: FastifyRequest): string =>
  Object.entries(cookiesOf(request))
    .map(([name, value]) => `${name}=${value ?? ''}`)
    .join('; ');

/** A cookie's name, as RFC 6265 allows it (a token). */
const COOKIE_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** A value, as RFC 6265 allows it unquoted (cookie-octets): what we set is base64url, digits and dots. */
const COOKIE_VALUE = /^[\u0021\u0023-\u002B\u002D-\u003A\u003C-\u005B\u005D-\u007E]*$/;
/** A path, without what would end the attribute or the header. */
const COOKIE_PATH = /^[\u0020-\u003A\u003C-\u007E]+$/;

/** The Set-Cookie header's value for a cookie. */
export function serializeCookie(cookie: Cookie, secure: boolean): string {
  if (!COOKIE_NAME.test(cookie.name)) throw new TypeError(`cookie name is invalid: ${cookie.name}`);
  if (!COOKIE_VALUE.test(cookie.value)) throw new TypeError(`cookie value is invalid for ${cookie.name}`);
  if (!COOKIE_PATH.test(cookie.path)) throw new TypeError(`cookie path is invalid: ${cookie.path}`);
  if (!Number.isSafeInteger(cookie.maxAge))
    throw new TypeError(`cookie Max-Age is invalid: ${cookie.maxAge}`);
  return (
    `${cookie.name}=${cookie.value}; Path=${cookie.path}; HttpOnly; ` +
    `SameSite=${cookie.sameSite}; Max-Age=${cookie.maxAge}${secure ? '; Secure' : ''}`
  );
}

/** Whether the answer sets a cookie: then it is the one visitor's, never kept for others. */
export const setsCookie = (reply: FastifyReply): boolean => reply.hasHeader('set-cookie');

/** Adds a Set-Cookie header to the answer (beside any other already set). */
export function setCookie(reply: FastifyReply, cookie: Cookie): void {
  reply.header('Set-Cookie', serializeCookie(cookie, reply.server.secureCookies));
}
