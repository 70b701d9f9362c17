import type { FastifyInstance } from 'fastify';
import { endpoints } from '../../../shared/api/endpoints.ts';
import type { AppContext } from '../../context.ts';
import { route } from '../../http/route.ts';
import { clientKey } from '../../rate-limit/client-address.ts';
import { login, logout, presentUser } from '../../accounts/accounts.service.ts';
import { deviceUserOf, setDeviceCookie } from './device-cookie.ts';
import { signInSlots, withGuessReserved } from './sign-in-limits.ts';
import { findUserByEmail } from '../../accounts/users.repository.ts';

export function registerAuthRoutes(app: FastifyInstance, { db, passwords, config }: AppContext): void {
  const secure = config.publicUrl.startsWith('https:');
  route(app, endpoints.getMe, async (_request, _reply, { user }) => presentUser(user));
  route(app, endpoints.login, async (request, reply) => {
    const { email, password } = request.body;
    const deviceUser = await deviceUserOf(db, request);
    const knownBrowser = deviceUser !== null && (await findUserByEmail(db, email))?.id === deviceUser;
    const slots = signInSlots(clientKey(request), email, knownBrowser);
    const result = await withGuessReserved(db, slots, () => login(db, passwords, email, password));
    await setDeviceCookie(db, reply, result.user.id, secure);
    return result;
  });
  route(app, endpoints.logout, async (_request, _reply, { token }) => {
    await logout(db, token);
    return { ok: true as const };
  });
}
