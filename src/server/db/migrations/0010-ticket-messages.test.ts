import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openAtMigration } from '../../testing/migrations.ts';
import { testDialects } from '../../testing/test-context.ts';
import type { Generated, Kysely } from 'kysely';
import { migrateTo } from '../database.ts';

/** The outbox as 0010 left it (0027 gave each kind columns of its own). */
interface Outbox0010 {
  outbox: {
    id: Generated<number>;
    ticket_id: number;
    message_id: number;
    target: string;
    status: string;
    attempts: number;
    next_attempt_at: number;
    last_error: string | null;
    created_at: number;
  };
}

describe.each(testDialects())('migration 0010-ticket-messages on %s', (dialect) => {
  it('keeps every stored delivery as the request’s own, and then takes one per message and target', async () => {
    const { environment, handle } = await openAtMigration(dialect, '0009-ticket-status');
    try {
      const sent = 1_700_000_000_000;
      await sql`insert into tickets (title, description, name, email, channel, user_id, lang, created_at, updated_at)
        values ('T', 'D', 'N', 'n@example.com', 'web', null, 'en', ${sent}, ${sent})`.execute(handle.db);
      const ticket = await handle.db.selectFrom('tickets').select('id').executeTakeFirstOrThrow();
      await sql`insert into outbox (ticket_id, target, status, attempts, next_attempt_at, last_error, created_at)
        values (${ticket.id}, 'email', 'failed', 12, ${sent}, 'HTTP 500', ${sent})`.execute(handle.db);
      const before = await handle.db.selectFrom('outbox').select('id').executeTakeFirstOrThrow();

      await migrateTo(handle, '0010-ticket-messages');
      const db = handle.db as unknown as Kysely<Outbox0010>;
      const rows = await db.selectFrom('outbox').selectAll().execute();
      expect(rows).toEqual([
        expect.objectContaining({
          id: before.id,
          ticket_id: ticket.id,
          message_id: 0,
          target: 'email',
          status: 'failed',
          attempts: 12,
          last_error: 'HTTP 500',
        }),
      ]);
      const row = (messageId: number) => ({
        ticket_id: ticket.id,
        message_id: messageId,
        target: 'email' as const,
        status: 'pending' as const,
        attempts: 0,
        next_attempt_at: sent,
        created_at: sent,
      });
      // Two messages each get their own delivery; the same one twice is refused.
      await db
        .insertInto('outbox')
        .values([row(1), row(2)])
        .execute();
      await expect(db.insertInto('outbox').values(row(2)).execute()).rejects.toThrow();
      // New rows take ids after the kept ones.
      const ids = (await db.selectFrom('outbox').select('id').orderBy('id').execute()).map((r) => r.id);
      expect(ids[0]).toBe(before.id);
      expect(new Set(ids).size).toBe(3);
    } finally {
      await handle.close();
      await environment.cleanup();
    }
  });
});
