import {
  USERS_PAGE_SIZE,
  type AdminUser,
  type AdminUserList,
  type InviteBody,
  type UserCreateBody,
  type UserListQuery,
  type UserUpdateBody,
} from '../../../shared/api/admin.ts';
import type { FieldError } from '../../../shared/api/common.ts';
import { TEAM_ROLES } from '../../../shared/constants.ts';
import type { Db, Executor } from '../../db/database.ts';
import type { UserRow } from '../../db/tables.ts';
import { ApiError, notFound } from '../../http/errors.ts';
import { createUser, EMAIL_PATTERN, hashToken, NO_PASSWORD } from '../../accounts/accounts.service.ts';
import type { Passwords } from '../../accounts/password.ts';
import {
  adminCount,
  deleteTokensOfUser,
  deleteUser,
  findUser,
  findUserByEmail,
  insertUser,
  normalEmail,
  pageUsers,
  lockUsers,
  unlinkTicketsOfUser,
  updateAccount,
  updateUser,
} from '../../accounts/users.repository.ts';
import type { AppContext } from '../../context.ts';
import { isUniqueViolation } from '../../db/constraint-errors.ts';
import { mailAccount, mailUnavailable } from '../../mail/account-mail.ts';
import { presentAdminUser } from '../../content/admin.presenters.ts';
import { cleanName } from '../../content/content-rules.ts';

/**
 * Takes the row locks of the acting admin and of the user acted on, in one statement (so two admins acting on each
 * other queue rather than deadlock), then refuses an actor who is no longer an admin. Their flag was checked before
 * the transaction; checked again under the lock, it cannot change until this transaction ends, so an admin who
 * removes another's flag or account always leaves at least themselves. Without it, on PostgreSQL at READ COMMITTED,
 * two admins removing each other's flag at the same moment would both see two admins and leave none.
 */
async function lockActorAndUser(trx: Executor, actorId: number, id: number): Promise<void> {
  await lockUsers(trx, [actorId, id]);
  const actor = await findUser(trx, actorId);
  if (actor?.role !== 'admin') throw new ApiError(403, 'forbidden', 'This needs an administrator account');
}

const lastAdmin = (field: string) =>
  new ApiError(409, 'last_admin', 'The help centre needs at least one administrator', [
    { field, message: 'would leave no administrator' },
  ]);

/** The team (admins and agents) or the customers, a page of USERS_PAGE_SIZE at a time, oldest first. */
export async function listUsers(db: Executor, query: UserListQuery): Promise<AdminUserList> {
  const page = query.page ?? 1;
  const roles = query.group === 'customers' ? (['customer'] as const) : TEAM_ROLES;
  const { rows, total } = await pageUsers(db, roles, USERS_PAGE_SIZE, (page - 1) * USERS_PAGE_SIZE);
  return {
    items: rows.map(presentAdminUser),
    _meta: {
      perPage: USERS_PAGE_SIZE,
      pageCount: Math.ceil(total / USERS_PAGE_SIZE),
      totalCount: total,
      currentPage: page,
    },
  };
}

export async function addUser(db: Executor, passwords: Passwords, body: UserCreateBody): Promise<AdminUser> {
  const user = await createUser(db, passwords, {
    email: body.email,
    name: body.name,
    password: body.password,
    role: body.role ?? 'customer',
  });
  return presentAdminUser(user);
}

const accountExists = () =>
  new ApiError(409, 'user_exists', 'This email already has an account; it needs no invitation', [
    { field: 'email', message: 'already has an account' },
  ]);

/** The account an invitation is for: a new one, or the one not yet accepted (renamed, its chosen password dropped). */
async function invitedAccount(db: Executor, email: string, name: string): Promise<UserRow> {
  const existing = await findUserByEmail(db, email);
  if (existing) {
    // A customer who signed up and never confirmed can be invited too: the invitation is how they get in now.
    if (existing.role !== 'customer' || existing.email_verified_at !== null) throw accountExists();
    if (existing.name === name && existing.password_hash === NO_PASSWORD) return existing;
    await updateAccount(db, existing.id, { name, password_hash: NO_PASSWORD });
    return { ...existing, name, password_hash: NO_PASSWORD };
  }
  try {
    return await insertUser(db, {
      email,
      name,
      password_hash: NO_PASSWORD,
      role: 'customer',
      email_verified_at: null,
    });
  } catch (error) {
    // Invited twice at once: the other request made the account, which this one invites again.
    if (!isUniqueViolation(error)) throw error;
    return invitedAccount(db, email, name);
  }
}

/**
 * Invites a customer: makes their account, with no password and the email unconfirmed, and mails them a link to
 * choose a password (`/accept-invite`), which confirms the email and signs them in. Inviting again, before they
 * accept, mails a fresh link; an email with an account in use is refused. Each link works once, for a week.
 */
export async function inviteCustomer(ctx: AppContext, body: InviteBody): Promise<AdminUser> {
  if (!ctx.config.tickets.smtpUrl) throw mailUnavailable();
  const email = normalEmail(body.email);
  const name = body.name.trim();
  const errors: FieldError[] = [];
  if (!EMAIL_PATTERN.test(email)) errors.push({ field: 'email', message: 'is not a valid email address' });
  if (!name) errors.push({ field: 'name', message: 'must not be empty' });
  if (errors.length > 0)
    throw new ApiError(400, 'invalid_user', errors.map((e) => `${e.field}: ${e.message}`).join('; '), errors);
  const user = await invitedAccount(ctx.db, email, name);
  await mailAccount(ctx, email, { kind: 'invite', userId: user.id });
  return presentAdminUser(user);
}

/**
 * Renames a user, sets a password (which signs them out everywhere but in the admin's own session) or the role. An
 * admin cannot take their own admin role away, and the last admin keeps theirs.
 */
export async function changeUser(
  db: Db,
  passwords: Passwords,
  actor: UserRow,
  actorToken: string,
  id: number,
  body: UserUpdateBody,
): Promise<AdminUser> {
  const name = body.name === undefined ? undefined : cleanName(body.name);
  const passwordHash = body.password === undefined ? undefined : await passwords.hash(body.password);
  return db.transaction().execute(async (trx) => {
    const demotes = body.role !== undefined && body.role !== 'admin';
    if (demotes) await lockActorAndUser(trx, actor.id, id);
    const user = await findUser(trx, id);
    if (!user) throw notFound(`User ${id}`);
    if (demotes && user.role === 'admin') {
      if (user.id === actor.id) {
        throw new ApiError(
          409,
          'own_account',
          'You cannot take away your own admin role; ask another admin',
          [{ field: 'role', message: 'cannot be changed on your own account' }],
        );
      }
      if ((await adminCount(trx)) <= 1) throw lastAdmin('role');
    }
    const changes: Partial<Pick<UserRow, 'name' | 'password_hash' | 'role'>> = {};
    if (name !== undefined) changes.name = name;
    if (passwordHash !== undefined) changes.password_hash = passwordHash;
    if (body.role !== undefined) changes.role = body.role;
    if (Object.keys(changes).length) await updateUser(trx, id, changes);
    if (passwordHash !== undefined) await deleteTokensOfUser(trx, id, hashToken(actorToken));
    return presentAdminUser((await findUser(trx, id)) as UserRow);
  });
}

/** Deletes a user and every token of theirs; their requests stay, without the link to them. */
export async function removeUser(db: Db, actor: UserRow, id: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await lockActorAndUser(trx, actor.id, id);
    const user = await findUser(trx, id);
    if (!user) throw notFound(`User ${id}`);
    if (user.id === actor.id) {
      throw new ApiError(409, 'own_account', 'You cannot delete your own account; ask another admin');
    }
    if (user.role === 'admin' && (await adminCount(trx)) <= 1) throw lastAdmin('id');
    await deleteTokensOfUser(trx, id);
    await unlinkTicketsOfUser(trx, id);
    await deleteUser(trx, id);
  });
}
