import type { FastifyInstance } from 'fastify';
import { endpoints } from '../../../shared/api/endpoints.ts';
import type { AppContext } from '../../context.ts';
import { route } from '../../http/route.ts';
import { addUser, changeUser, inviteCustomer, listUsers, removeUser } from './admin-users.service.ts';

/** The team's accounts: who may sign in to the admin app. */
export function registerAdminUserRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { db, passwords } = ctx;
  route(app, endpoints.listUsers, async (request) => listUsers(db, request.query));
  route(app, endpoints.createUser, async (request) => addUser(db, passwords, request.body));
  route(app, endpoints.updateUser, async (request, _reply, { user, token }) =>
    changeUser(db, passwords, user, token, request.params.id, request.body),
  );
  route(app, endpoints.deleteUser, async (request, _reply, { user }) => {
    await removeUser(db, user, request.params.id);
    return { ok: true } as const;
  });
  route(app, endpoints.inviteCustomer, async (request) => inviteCustomer(ctx, request.body));
}
