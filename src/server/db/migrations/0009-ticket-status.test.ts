import { Migrator, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createTestEnvironment, testDialects } from '../../testing/test-context.ts';
import { migrateToLatest, openDatabase } from '../database.ts';
import { migrationsFor } from './index.ts';

describe.each(testDialects())('migration 0009-ticket-status on %s', (dialect) => {
  it('makes every stored request new, unassigned, last touched when it was sent', async () => {
    const environment = await createTestEnvironment(dialect);
    const handle = openDatabase(environment.config.database);
    try {
      const migrator = new Migrator({
        db: handle.db,
        provider: { getMigrations: async () => migrationsFor(dialect) },
        ...(environment.schema ? { migrationTableSchema: environment.schema } : {}),
      });
      expect((await migrator.migrateTo('0008-roles')).error).toBeUndefined();
      const sent = 1_700_000_000_000;
      await sql`insert into tickets (title, description, name, email, channel, user_id, lang, created_at)
        values ('T', 'D', 'N', 'n@example.com', 'web', null, 'en', ${sent})`.execute(handle.db);

      await migrateToLatest(handle);
      const tickets = await handle.db
        .selectFrom('tickets')
        .select(['status', 'assignee_id', 'updated_at'])
        .execute();
      expect(tickets).toEqual([{ status: 'new', assignee_id: null, updated_at: sent }]);
    } finally {
      await handle.close();
      await environment.cleanup();
    }
  });
});
