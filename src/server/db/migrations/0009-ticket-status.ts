import { sql, type Kysely } from 'kysely';
import { timeType, type Dialect } from '../schema-helpers.ts';

/**
 * Where a request stands for the team (`status`: new, open, waiting, solved, closed), who answers it (`assignee_id`,
 * a member of the team; cleared when their account goes) and when anything last happened to it (`updated_at`).
 * Requests stored before are new, last touched when they were sent.
 */
export function up(dialect: Dialect) {
  return async (db: Kysely<unknown>) => {
    await db.schema
      .alterTable('tickets')
      .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('new'))
      .execute();
    await db.schema
      .alterTable('tickets')
      .addColumn('assignee_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .execute();
    await db.schema.alterTable('tickets').addColumn('updated_at', timeType(dialect)).execute();
    await sql`update tickets set updated_at = created_at`.execute(db);
    await db.schema
      .createIndex('tickets_status_updated')
      .on('tickets')
      .columns(['status', 'updated_at'])
      .execute();
    await db.schema.createIndex('tickets_assignee').on('tickets').column('assignee_id').execute();
  };
}
