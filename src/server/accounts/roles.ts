import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AUTH_HEADER } from '../../shared/api/auth.ts';
import type { Role } from '../../shared/api/endpoints.ts';
import type { Executor } from '../db/database.ts';
import type { RoleCheck, Session } from '../http/route.ts';
import { editorTokenOf, renewAdminFilesCookie } from './admin-session.ts';
import { authenticate, requireAdmin, requireTeam, usersOfTokens } from './accounts.service.ts';
import { sessionCookieToken } from './session-cookie.ts';

/** The caller's token: x-auth-token, else (on reads and sign-out) the session cookie. */
const tokenOf = (request: FastifyRequest) => {
  const value = request.headers[AUTH_HEADER];
  return typeof value === 'string' && value ? value : sessionCookieToken(request);
};

/**
 * Who downloads a file: the editor (an admin by the header, or by the files cookie an <img> sends), else the visitor
 * of the session cookie (an <img> or a link sends it, never a header); a stale token of either counts as none. Both
 * tokens are looked up in one query.
 */
async function fileReader(db: Executor, request: FastifyRequest): Promise<Session | null> {
  const editorToken = editorTokenOf(request);
  const visitorToken = sessionCookieToken(request);
  const users = await usersOfTokens(db, [editorToken, visitorToken]);
  const editor = editorToken && users.get(editorToken);
  if (editor && editor.role === 'admin') return { user: editor, token: editorToken, editor: true };
  const visitor = visitorToken && users.get(visitorToken);
  return visitor ? { user: visitor, token: visitorToken } : null;
}

/** The visitor of the session cookie, if its token is valid; a stale one counts as none. */
async function cookieSession(db: Executor, request: FastifyRequest): Promise<Session | null> {
  const token = sessionCookieToken(request);
  const user = token ? await authenticate(db, token).catch(() => null) : null;
  return user && { user, token: token as string };
}

/**
 * The one check of every role: 401 without a valid x-auth-token (or, on reads, session cookie), 403 for a user the role does not admit. An admin's
 * answer is never kept and renews the files cookie (see admin-session.ts).
 */
export function roleCheck(db: Executor): RoleCheck {
  return async (role: Role, request: FastifyRequest, reply: FastifyReply, identifies) => {
    const token = tokenOf(request);
    switch (role) {
      case 'public': {
        if (identifies === 'files') return fileReader(db, request);
        // A stale token does not stop a public call: the caller is simply treated as anonymous.
        const user = identifies && token ? await authenticate(db, token).catch(() => null) : null;
        return user && { user, token: token as string };
      }
      case 'customer':
        return { user: await authenticate(db, token), token: token as string };
      case 'admin': {
        const user = await requireAdmin(db, token);
        renewAdminFilesCookie(reply, token as string);
        return { user, token: token as string };
      }
      case 'agent': {
        const user = await requireTeam(db, token);
        renewAdminFilesCookie(reply, token as string);
        return { user, token: token as string };
      }
    }
  };
}

/** Makes route() hold every endpoint to its role; before any route is registered. */
export function registerRoles(app: FastifyInstance, db: Executor): void {
  app.decorate('roleCheck', roleCheck(db));
  app.decorate(
    'pageVisitor',
    async (request: FastifyRequest) => (await cookieSession(db, request))?.user ?? null,
  );
}
