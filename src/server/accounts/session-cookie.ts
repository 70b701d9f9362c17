import type { FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_COOKIE } from '../../shared/constants.ts';
import { apiPaths } from '../../shared/paths.ts';
import { readCookie, setCookie } from '../http/cookies.ts';

/** The writes a session cookie may make: signing out, here or everywhere, which a page rendered by it must offer. */
const COOKIE_WRITES = new Set<string>([apiPaths.logout, apiPaths.logoutEverywhere]);

/**
 * The token of the session cookie, where the cookie counts: on reads (GET, HEAD) and on sign-out. Every other
 * write takes the token from x-auth-token only, so a cookie another site's form makes the browser send
 * (SameSite=Lax already stops it) can change nothing.
 */
export function sessionCookieToken(request: FastifyRequest): string | undefined {
  const path = request.url.split('?')[0] ?? '';
  if (request.method !== 'GET' && request.method !== 'HEAD' && !COOKIE_WRITES.has(path)) return undefined;
  const value = readCookie(request, SESSION_COOKIE);
  return value && /^[A-Za-z0-9_-]{20,128}$/.test(value) ? value : undefined;
}

/** Sets the session cookie beside a new token, for as long as the token lives. */
export function setSessionCookie(reply: FastifyReply, token: string, expiresAt: string): void {
  const maxAge = Math.max(0, Math.floor((Date.parse(expiresAt) - Date.now()) / 1000));
  setCookie(reply, { name: SESSION_COOKIE, value: token, path: '/', sameSite: 'Lax', maxAge });
}

export function clearSessionCookie(reply: FastifyReply): void {
  setCookie(reply, { name: SESSION_COOKIE, value: '', path: '/', sameSite: 'Lax', maxAge: 0 });
}
