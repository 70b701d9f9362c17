import type { AppContext } from '../context.ts';
import type { FileRow, OutboxTarget, TicketRow } from '../db/tables.ts';
import { contentTypeFor } from '../lib/content-type.ts';
import { insertFile } from '../files/files.repository.ts';
import { attachFiles, enqueue, insertTicket, inTransaction, type NewTicket } from '../tickets/index.ts';

/** Test rows made the way issue-open makes them: a visitor's private uploads, and a ticket with its outbox rows. */

export async function buildUpload(
  ctx: AppContext,
  name: string,
  content: string | Buffer,
  owner = 'visitor:test',
): Promise<FileRow> {
  const blob = await ctx.storage.put(Buffer.from(content));
  return insertFile(ctx.db, {
    storage_key: blob.key,
    original_name: name,
    mime_type: contentTypeFor(name),
    size: blob.size,
    kind: 'upload',
    source_path: null,
    owner_key: owner,
    created_at: Date.now(),
  });
}

let sequence = 0;

export function buildTicket(
  ctx: AppContext,
  input: { files?: FileRow[]; targets?: OutboxTarget[]; now?: number } & Partial<NewTicket> = {},
): Promise<TicketRow> {
  const { files = [], targets = ['webhook'], now = Date.now(), ...fields } = input;
  const n = ++sequence;
  return inTransaction(ctx.db, async (trx) => {
    const ticket = await insertTicket(
      trx,
      {
        title: `How can we help you? Request ${n}`,
        description: `My thermostat shows E${n}.\n\nTroubleshooting > Display\nhttp://localhost/knowledge/instruction/1`,
        name: 'Ann Lee',
        email: 'ann@example.com',
        channel: 'web',
        user_id: null,
        lang: 'en',
        ...fields,
      },
      now,
    );
    await attachFiles(
      trx,
      ticket.id,
      files.map((f) => f.id),
    );
    await enqueue(trx, ticket.id, { kind: 'request', targets }, now);
    return ticket;
  });
}

/** Settings for an app that takes requests freely: no captcha, a webhook nobody answers, the hourly limits far off. */
export const OPEN_REQUESTS_CONFIG = {
  CAPTCHA_PROVIDER: 'none',
  TICKET_WEBHOOK_URL: 'http://127.0.0.1:9/hook',
  REQUESTS_PER_HOUR: '1000',
  UPLOADS_PER_HOUR: '1000',
};

/** A body issue-open accepts, with the fields given changed. */
export const issueOpenBody = (overrides: Record<string, unknown> = {}) => ({
  title: 'How can we help you? Troubleshooting',
  description:
    'My thermostat shows E42.\n\nTroubleshooting > Display > Error codes\nhttp://localhost/knowledge/instruction/1',
  channel: 'web',
  name: 'Ann Lee',
  email: 'ann@example.com',
  files: [],
  g_recaptcha_response: '',
  ...overrides,
});
