import type { FastifyInstance, FastifyRequest } from 'fastify';
import { endpoints } from '../../../shared/api/endpoints.ts';
import type { AppContext } from '../../context.ts';
import { route } from '../../http/route.ts';
import { clientKey } from '../../rate-limit/client-address.ts';
import { login, logout, presentUser } from '../../accounts/accounts.service.ts';
import { deviceUserOf, setDeviceCookie } from '../../accounts/device-cookie.ts';
import { clearSessionCookie, setSessionCookie } from '../../accounts/session-cookie.ts';
import { signInSlots, withGuessReserved } from './sign-in-limits.ts';
import { endFlow, flowBindingOf, newFlow } from './flow-cookie.ts';
import { deleteTokensOfUser, findUserByEmail } from '../../accounts/users.repository.ts';
import {
  acceptInvite,
  deleteMe,
  requestPasswordReset,
  setNewPassword,
  signUp,
  updateMe,
  verifyEmail,
} from './account.service.ts';

export function registerAuthRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { db, passwords } = ctx;
  const mailClient = async (request: FastifyRequest) => ({
    key: clientKey(request),
    deviceUser: await deviceUserOf(db, request),
  });
  route(app, endpoints.getMe, async (_request, _reply, { user }) => presentUser(user));
  route(app, endpoints.login, async (request, reply) => {
    const { email, password } = request.body;
    const deviceUser = await deviceUserOf(db, request);
    const knownBrowser = deviceUser !== null && (await findUserByEmail(db, email))?.id === deviceUser;
    const slots = signInSlots(clientKey(request), email, knownBrowser);
    const result = await withGuessReserved(db, slots, () => login(db, passwords, email, password));
    await setDeviceCookie(db, reply, result.user.id);
    setSessionCookie(reply, result.token, result.expires_at);
    return result;
  });
  route(app, endpoints.logout, async (_request, reply, { token }) => {
    await logout(db, token);
    clearSessionCookie(reply);
    return { ok: true as const };
  });
  route(app, endpoints.logoutEverywhere, async (_request, reply, { user }) => {
    await deleteTokensOfUser(db, user.id);
    clearSessionCookie(reply);
    return { ok: true as const };
  });
  route(app, endpoints.signUp, async (request, reply) => {
    const flow = newFlow();
    const result = await signUp(ctx, request.body, await mailClient(request), flow.binding);
    flow.setCookie(reply);
    return result;
  });
  route(app, endpoints.verifyEmail, async (request, reply) => {
    const result = await verifyEmail(ctx, request.body, flowBindingOf(request));
    endFlow(reply);
    await setDeviceCookie(db, reply, result.user.id);
    setSessionCookie(reply, result.token, result.expires_at);
    return result;
  });
  route(app, endpoints.requestPasswordReset, async (request) =>
    requestPasswordReset(ctx, request.body, await mailClient(request)),
  );
  route(app, endpoints.setNewPassword, async (request, reply) => {
    const result = await setNewPassword(ctx, request.body);
    await setDeviceCookie(db, reply, result.user.id);
    setSessionCookie(reply, result.token, result.expires_at);
    return result;
  });
  route(app, endpoints.acceptInvite, async (request, reply) => {
    const result = await acceptInvite(ctx, request.body);
    await setDeviceCookie(db, reply, result.user.id);
    setSessionCookie(reply, result.token, result.expires_at);
    return result;
  });
  route(app, endpoints.updateMe, async (request, reply, { user, token }) => {
    const flow = newFlow();
    const result = await updateMe(ctx, user, token, clientKey(request), request.body, flow.binding);
    if (result.email_change_sent_to !== null) flow.setCookie(reply);
    return result;
  });
  route(app, endpoints.deleteMe, async (request, reply, { user }) => {
    await deleteMe(ctx, user, clientKey(request), request.body.password);
    clearSessionCookie(reply);
    return { ok: true as const };
  });
}
