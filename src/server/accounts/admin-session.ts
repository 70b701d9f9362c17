import type { FastifyReply, FastifyRequest } from 'fastify';
import { AUTH_HEADER } from '../../shared/api/auth.ts';
import { readCookie, setCookie } from '../http/cookies.ts';
import { TOKEN_LIFETIME_MS } from './accounts.service.ts';

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

/** The token that would make a file request the editor's: the header's, else the files cookie's. */
export function editorTokenOf(request: FastifyRequest): string | undefined {
  const cookie = readCookie(request, ADMIN_FILES_COOKIE);
  return headerToken(request) ?? (cookie ? safeDecode(cookie) : undefined);
}

function safeDecode(value: string): string | undefined {
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
}
