import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { readCookie, setCookie } from '../http/cookies.ts';

export const VISITOR_COOKIE = 'signpost_visitor';
const MAX_AGE_SECONDS = 30 * 24 * 60 * 60;

/** The owner key of a visitor's uploads; the cookie's value itself is never stored. */
const keyOf = (cookie: string) => `visitor:${crypto.createHash('sha256').update(cookie).digest('hex')}`;

/** The visitor's owner key from the cookie, if the request carries a well-formed one. */
export function visitorKey(request: FastifyRequest): string | null {
  const cookie = readCookie(request, VISITOR_COOKIE);
  return cookie && /^[A-Za-z0-9_-]{32,64}$/.test(cookie) ? keyOf(cookie) : null;
}

/**
 * Identifies an anonymous uploader with an HTTP-only cookie, set on the first upload, so that only the same
 * browser can attach those files to a request.
 */
export function ensureVisitorKey(request: FastifyRequest, reply: FastifyReply): string {
  const existing = visitorKey(request);
  if (existing) return existing;
  const cookie = crypto.randomBytes(24).toString('base64url');
  setCookie(reply, {
    name: VISITOR_COOKIE,
    value: cookie,
    path: '/',
    sameSite: 'Lax',
    maxAge: MAX_AGE_SECONDS,
  });
  return keyOf(cookie);
}

export const userKey = (userId: number) => `user:${userId}`;
