import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openAtMigration } from '../../testing/migrations.ts';
import { testDialects } from '../../testing/test-context.ts';
import { migrateToLatest } from '../database.ts';

describe.each(testDialects())('migration 0009-ticket-status on %s', (dialect) => {
  it('makes every stored request new, unassigned, last touched when it was sent', async () => {
    const { environment, handle } = await openAtMigration(dialect, '0008-roles');
    try {
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
