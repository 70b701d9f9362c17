import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createContext } from '../server/context-factory.ts';
import type { AppContext } from '../server/context.ts';
import type { TicketRow } from '../server/db/tables.ts';
import { buildTicket, buildUpload } from '../server/testing/ticket-fixtures.ts';
import { createTestEnvironment, testDialects, type TestEnvironment } from '../server/testing/test-context.ts';
import { signpost } from '../server/testing/run-cli.ts';

// Each test runs the real command in child processes, several of them, each a second or more while the other test
// files keep both cores busy: the default 30 s is too tight a bound for that.
vi.setConfig({ testTimeout: 90_000 });

describe('signpost tickets with bad arguments', () => {
  it('explains the mistake in one line, before touching any database', async () => {
    const env = { DATA_DIR: '/nonexistent-signpost' };
    const runs = await Promise.all([
      signpost(['tickets', 'show', 'abc'], env),
      signpost(['tickets', 'show'], env),
      signpost(['tickets', 'list', '--limit', '0'], env),
      signpost(['tickets', 'list', '--limit', 'many'], env),
      signpost(['tickets'], env),
      signpost(['help'], env),
    ]);
    expect(runs.map((run) => run.code)).toEqual([1, 1, 1, 1, 1, 0]);
    expect(runs[0]?.stderr).toContain('"abc" is not a ticket id');
    expect(runs[1]?.stderr).toContain('usage: signpost tickets list [--limit N] | signpost tickets show ID');
    expect(runs[2]?.stderr).toContain('--limit must be a whole number from 1 to 1000, not "0"');
    expect(runs[3]?.stderr).toContain('not "many"');
    expect(runs[4]?.stderr).toContain('usage: signpost tickets');
    expect(runs.slice(0, 5).every((run) => run.stderr.trim().split('\n').length === 1)).toBe(true);
    expect(runs[5]?.stdout).toContain('tickets list [--limit N]');
    expect(runs[5]?.stdout).toContain('tickets show ID');
  });
});

describe.each(testDialects())('signpost tickets on %s', (dialect) => {
  let environment: TestEnvironment;
  let ctx: AppContext;
  let older: TicketRow;
  let newer: TicketRow;
  let newest: TicketRow;
  const start = Date.UTC(2025, 2, 4, 9, 30, 0);

  beforeAll(async () => {
    environment = await createTestEnvironment(dialect);
    ctx = await createContext(environment.config);
  });
  afterAll(async () => {
    await ctx?.database.close();
    await environment?.cleanup();
  });

  it('says when there are no tickets', async () => {
    const run = await signpost(['tickets', 'list'], environment.env);
    expect(run.stderr).toBe('');
    expect(run.stdout.trim()).toBe('no tickets yet');
  });

  it('lists tickets newest first with their delivery state, and shows one in full', async () => {
    const screenshot = await buildUpload(ctx, 'screenshot.png', Buffer.alloc(2560, 1));
    const log = await buildUpload(ctx, 'log.txt', 'E42\n');
    older = await buildTicket(ctx, {
      now: start,
      files: [screenshot, log],
      targets: ['webhook', 'email'],
      title: 'Thermostat shows E42',
      description: 'It blinks.\nThen it stops.\n\nHelp > Display > Errors',
      name: 'Ann Lee',
      email: 'ann@example.com',
    });
    await ctx.db
      .updateTable('outbox')
      .set({ status: 'delivered', attempts: 1, delivered_at: start + 1000 })
      .where('ticket_id', '=', older.id)
      .where('target', '=', 'webhook')
      .execute();
    await ctx.db
      .updateTable('outbox')
      .set({ attempts: 3, last_error: '451 Mailbox busy, try later' })
      .where('ticket_id', '=', older.id)
      .where('target', '=', 'email')
      .execute();
    newer = await buildTicket(ctx, {
      now: start + 60_000,
      targets: [],
      title: 'Second',
      name: 'Bo',
      email: 'bo@example.com',
    });
    newest = await buildTicket(ctx, {
      now: start + 120_000,
      targets: ['webhook'],
      title: 'Third',
      name: 'Eve \u001b[31mRed',
      email: 'eve@example.com',
    });

    const [list, limited, show, showNoTargets] = await Promise.all([
      signpost(['tickets', 'list'], environment.env),
      signpost(['tickets', 'list', '--limit', '2'], environment.env),
      signpost(['tickets', 'show', String(older.id)], environment.env),
      signpost(['tickets', 'show', String(newer.id)], environment.env),
    ]);

    expect(list.stderr).toBe('');
    expect(list.code).toBe(0);
    const lines = list.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID\s+CREATED \(UTC\)\s+FROM\s+TITLE\s+DELIVERY$/);
    expect(lines.slice(1).map((line) => Number(line.split(' ')[0]))).toEqual([newest.id, newer.id, older.id]);
    expect(lines[3]).toMatch(
      /2025-03-04 09:30\s+Ann Lee <ann@example.com>\s+Thermostat shows E42\s+email pending \(3 tried\), webhook delivered$/,
    );
    expect(lines[2]).toMatch(/2025-03-04 09:31\s+Bo <bo@example.com>\s+Second\s+no targets$/);
    expect(lines[1]).toMatch(/Eve \?\[31mRed <eve@example.com>\s+Third\s+webhook pending \(0 tried\)$/);
    // A stranger's text never reaches the terminal as a control sequence.
    expect(list.stdout).not.toContain('\u001b');

    expect(
      limited.stdout
        .trimEnd()
        .split('\n')
        .slice(1, -1)
        .map((line) => Number(line.split(' ')[0])),
    ).toEqual([newest.id, newer.id]);
    expect(limited.stdout).toContain('(the newest 2 of 3; --limit N shows more)');

    expect(show.stderr).toBe('');
    expect(show.stdout).toContain(`Ticket ${older.id}\n`);
    for (const pattern of [
      /title:\s+Thermostat shows E42/,
      /from:\s+Ann Lee <ann@example.com>/,
      /user:\s+none \(not signed in\)/,
      /channel:\s+web/,
      /language:\s+en/,
      /created:\s+2025-03-04T09:30:00.000Z/,
      /Description:\n {2}It blinks.\n {2}Then it stops.\n\n {2}Help > Display > Errors\n/,
      /Files \(2\):/,
      new RegExp(`${screenshot.id}\\s+screenshot.png\\s+2.5 KB \\(2560 bytes\\)`),
      new RegExp(`${log.id}\\s+log.txt\\s+4 B \\(4 bytes\\)`),
      /email\s+pending\s+3 attempts\s+last error: 451 Mailbox busy, try later/,
      /webhook\s+delivered\s+1 attempt\s+delivered 2025-03-04T09:30:01.000Z/,
    ]) {
      expect(show.stdout).toMatch(pattern);
    }

    expect(showNoTargets.stdout).toMatch(/Files \(0\):\n {2}none/);
    expect(showNoTargets.stdout).toMatch(/Deliveries:\n {2}none/);
  });

  it('names a ticket that does not exist', async () => {
    const run = await signpost(['tickets', 'show', '999999'], environment.env);
    expect(run.code).toBe(1);
    expect(run.stderr.trim()).toBe('signpost tickets: Ticket 999999 was not found');
  });
});
