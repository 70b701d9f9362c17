import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openAtMigration } from '../../testing/migrations.ts';
import { testDialects } from '../../testing/test-context.ts';
import { migrateToLatest } from '../database.ts';

describe.each(testDialects())('migration 0008-roles on %s', (dialect) => {
  it('makes admins admins and everyone else a customer, verified, and drops the admin flag', async () => {
    const { environment, handle } = await openAtMigration(dialect, '0007-upload-times');
    try {
      const created = 1_700_000_000_000;
      for (const [email, isAdmin] of [
        ['ada@example.com', 1],
        ['bob@example.com', 0],
      ] as const) {
        await sql`insert into users (email, name, password_hash, is_admin, created_at)
          values (${email}, ${email}, ${'x'}, ${isAdmin}, ${created})`.execute(handle.db);
      }

      await migrateToLatest(handle);
      const users = await handle.db
        .selectFrom('users')
        .select(['email', 'role', 'email_verified_at'])
        .orderBy('email')
        .execute();
      expect(users).toEqual([
        { email: 'ada@example.com', role: 'admin', email_verified_at: created },
        { email: 'bob@example.com', role: 'customer', email_verified_at: created },
      ]);
      const flag = await sql`select is_admin from users`.execute(handle.db).then(
        () => 'still there',
        () => 'gone',
      );
      expect(flag).toBe('gone');
    } finally {
      await handle.close();
      await environment.cleanup();
    }
  });
});
