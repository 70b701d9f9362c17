import type { AdminUser, AdminUserList, UserCreateBody, UserUpdateBody } from '../../../shared/api/admin.ts';
import type { Db, Executor } from '../../db/database.ts';
import type { UserRow } from '../../db/tables.ts';
import { ApiError, notFound } from '../../http/errors.ts';
import { createUser, hashToken } from '../../accounts/accounts.service.ts';
import type { Passwords } from '../../accounts/password.ts';
import {
  adminCount,
  deleteTokensOfUser,
  deleteUser,
  findUser,
  listAllUsers,
  lockUsers,
  unlinkTicketsOfUser,
  updateUser,
} from '../../accounts/users.repository.ts';
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
  if (actor?.is_admin !== 1) throw new ApiError(403, 'forbidden', 'This needs an administrator account');
}

const lastAdmin = (field: string) =>
  new ApiError(409, 'last_admin', 'The help centre needs at least one administrator', [
    { field, message: 'would leave no administrator' },
  ]);

export async function listUsers(db: Executor): Promise<AdminUserList> {
  const users = await listAllUsers(db);
  return { items: users.map(presentAdminUser) };
}

export async function addUser(db: Executor, passwords: Passwords, body: UserCreateBody): Promise<AdminUser> {
  const user = await createUser(db, passwords, {
    email: body.email,
    name: body.name,
    password: body.password,
    admin: body.is_admin ?? false,
  });
  return presentAdminUser(user);
}

/**
 * Renames a user, sets a password (which signs them out everywhere but in the admin's own session) or the admin
 * flag. An admin cannot take their own flag away, and the last admin keeps theirs.
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
    if (body.is_admin === false) await lockActorAndUser(trx, actor.id, id);
    const user = await findUser(trx, id);
    if (!user) throw notFound(`User ${id}`);
    if (body.is_admin === false && user.is_admin === 1) {
      if (user.id === actor.id) {
        throw new ApiError(409, 'own_account', 'You cannot remove your own admin flag; ask another admin', [
          { field: 'is_admin', message: 'cannot be removed from your own account' },
        ]);
      }
      if ((await adminCount(trx)) <= 1) throw lastAdmin('is_admin');
    }
    const changes: Partial<Pick<UserRow, 'name' | 'password_hash' | 'is_admin'>> = {};
    if (name !== undefined) changes.name = name;
    if (passwordHash !== undefined) changes.password_hash = passwordHash;
    if (body.is_admin !== undefined) changes.is_admin = body.is_admin ? 1 : 0;
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
    if (user.is_admin === 1 && (await adminCount(trx)) <= 1) throw lastAdmin('id');
    await deleteTokensOfUser(trx, id);
    await unlinkTicketsOfUser(trx, id);
    await deleteUser(trx, id);
  });
}
