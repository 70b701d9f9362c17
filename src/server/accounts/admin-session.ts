import type { FastifyReply, FastifyRequest } from 'fastify';
import { AUTH_HEADER } from '../../shared/api/auth.ts';
import type { Executor } from '../db/database.ts';
import { readCookie, setCookie } from '../http/cookies.ts';
import type { Session } from '../http/route.ts';
import { authenticate, TOKEN_LIFETIME_MS } from './accounts.service.ts';

/**
 * The admin's token again, as an HTTP-only cookie that only /files/ receives: the editor shows images of drafts and
 * fresh uploads through plain <img> tags, which cannot send the x-auth-token header.
 */
export const ADMIN_FILES_COOKIE = 'signpost_admin';

const headerToken = (request: FastifyRequest) => {
  const value = request.headers[AUTH_HEADER];
  return typeof value === 'string' && value ? value : undefined;
};

/** An admin's answer is never kept, and renews the files cookie with the token they sent. */
export function renewAdminFilesCookie(reply: FastifyReply, token: string): void {
  reply.header('Cache-Control', 'no-store');
  setCookie(reply, {
    name: ADMIN_FILES_COOKIE,
    value: encodeURIComponent(token),
    path: '/files',
    sameSite: 'Strict',
    maxAge: TOKEN_LIFETIME_MS / 1000,
  });
}

/** The admin behind a file request (header or files cookie) and their token, or null for anyone else. */
export async function editorOfFileRequest(db: Executor, request: FastifyRequest): Promise<Session | null> {
  const cookie = readCookie(request, ADMIN_FILES_COOKIE);
  const token = headerToken(request) ?? (cookie ? safeDecode(cookie) : undefined);
  if (!token) return null;
  const user = await authenticate(db, token).catch(() => null);
  return user?.role === 'admin' ? { user, token, editor: true } : null;
}

function safeDecode(value: string): string | undefined {
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
}
