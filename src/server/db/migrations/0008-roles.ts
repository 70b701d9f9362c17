import { sql, type Kysely } from 'kysely';
import { timeType, type Dialect } from '../schema-helpers.ts';

/**
 * Who a user is to the help centre: `admin` (everything), `agent` (the team's inbox) or `customer` (a visitor with
 * an account), in place of the admin flag; and when their email was shown to be theirs. Admins keep their role,
 * everyone else becomes a customer; accounts made before this by an operator or an admin count as verified.
 */
export function up(dialect: Dialect) {
  return async (db: Kysely<unknown>) => {
    await db.schema
      .alterTable('users')
      .addColumn('role', 'varchar(16)', (c) => c.notNull().defaultTo('customer'))
      .execute();
    await db.schema.alterTable('users').addColumn('email_verified_at', timeType(dialect)).execute();
    await sql`update users set role = case when is_admin = 1 then 'admin' else 'customer' end,
      email_verified_at = created_at`.execute(db);
    await db.schema.alterTable('users').dropColumn('is_admin').execute();
    await db.schema.createIndex('users_role').on('users').columns(['role', 'id']).execute();
  };
}
