import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TICKET_STATUSES, TICKET_TRANSITIONS, type TicketStatus } from '../../shared/constants.ts';
import type { ApiError } from '../http/errors.ts';
import { createTestApp, testDialects, type TestApp } from '../testing/test-context.ts';
import { buildTicket } from '../testing/ticket-fixtures.ts';
import { addMessage, mayMove, moveByRequester, refusals, statusAfter } from './lifecycle.ts';
import { messagesOf } from './thread.repository.ts';
import { deliveriesOfTicket, findTicket } from './tickets.repository.ts';

/** The lifecycle on its own: its moves, what a message does by itself, its refusals and the events it emits. */
describe('the moves of a request', () => {
  it('lets the team make the moves of the contract, and nothing else', () => {
    for (const from of TICKET_STATUSES)
      for (const to of TICKET_STATUSES)
        expect(mayMove('team', from, to), `${from} → ${to}`).toBe(
          from === to || TICKET_TRANSITIONS[from].includes(to),
        );
  });

  it('lets the requester mark a request solved or reopen a solved one, and nothing else', () => {
    const allowed = (from: TicketStatus, to: TicketStatus) =>
      from === to || (to === 'solved' && from !== 'closed') || (from === 'solved' && to === 'open');
    for (const from of TICKET_STATUSES)
      for (const to of TICKET_STATUSES)
        expect(mayMove('requester', from, to), `${from} → ${to}`).toBe(allowed(from, to));
  });

  it("moves a request by a message's own effect", () => {
    const team = { author: { id: 1, name: 'Dana', fromTeam: true }, internal: false };
    const note = { ...team, internal: true };
    const requester = { author: { id: null, name: 'Ann', fromTeam: false }, internal: false };
    const after = (status: TicketStatus, message: Parameters<typeof statusAfter>[1]) =>
      statusAfter({ status }, message);
    expect(TICKET_STATUSES.map((s) => after(s, team))).toEqual([
      'waiting',
      'waiting',
      'waiting',
      'solved',
      'closed',
    ]);
    expect(TICKET_STATUSES.map((s) => after(s, note))).toEqual([
      'open',
      'open',
      'waiting',
      'solved',
      'closed',
    ]);
    expect(TICKET_STATUSES.map((s) => after(s, requester))).toEqual([
      'new',
      'open',
      'open',
      'open',
      'closed',
    ]);
  });

  it('builds each refusal as a 409 with its code and field', () => {
    const cases: [ApiError, string, string][] = [
      [refusals.closed(), 'closed', 'body'],
      [refusals.transition('closed', 'open'), 'invalid_transition', 'status'],
      [refusals.changedMeanwhile(), 'conflict', 'status'],
      [refusals.fileTaken(), 'conflict', 'files'],
    ];
    for (const [error, code, field] of cases) {
      expect(error.status).toBe(409);
      expect(error.code).toBe(code);
      expect(error.fields.map((f) => f.field)).toEqual([field]);
    }
    expect(refusals.transition('closed', 'open').message).toBe('A closed request cannot become open');
  });
});

describe.each(testDialects())('the lifecycle writes, on %s', (dialect) => {
  let t: TestApp;
  const say = (key: string) => Promise.resolve([{ field: 'status', message: key }]);
  const team = { id: null, name: 'Dana', fromTeam: true };

  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("emits the webhook's status change with a requester's move, and refuses a move that is not theirs", async () => {
    const ticket = await buildTicket(t.ctx, { targets: [] });
    await moveByRequester(t.ctx.db, ticket, 'solved', { webhook: true, say });
    expect((await findTicket(t.ctx.db, ticket.id))?.status).toBe('solved');
    expect((await deliveriesOfTicket(t.ctx.db, ticket.id)).map((d) => d.target)).toEqual(['webhook']);
    const solved = (await findTicket(t.ctx.db, ticket.id))!;
    await expect(moveByRequester(t.ctx.db, solved, 'closed', { webhook: true, say })).rejects.toMatchObject({
      status: 409,
      code: 'invalid_transition',
      fields: [{ field: 'status', message: 'statusNotAllowed' }],
    });
    // Read before the move above: the request changed since, and the move is refused rather than written over it.
    await expect(moveByRequester(t.ctx.db, ticket, 'solved', { webhook: true, say })).rejects.toMatchObject({
      status: 409,
      code: 'conflict',
      fields: [{ field: 'status', message: 'changedMeanwhile' }],
    });
  });

  it('queues a message with its deliveries, and emits a status change only for a status the writer chose', async () => {
    const ticket = await buildTicket(t.ctx, { targets: [] });
    const base = { author: team, text: 'On it', internal: false, fileIds: [], statusWebhook: true };
    await addMessage(t.ctx.db, ticket, { ...base, targets: ['requester'] });
    expect((await deliveriesOfTicket(t.ctx.db, ticket.id)).map((d) => d.target)).toEqual(['requester']);
    const waiting = (await findTicket(t.ctx.db, ticket.id))!;
    expect(waiting.status).toBe('waiting');
    await addMessage(t.ctx.db, waiting, { ...base, targets: [], status: 'solved' });
    expect((await deliveriesOfTicket(t.ctx.db, ticket.id)).map((d) => d.target)).toEqual([
      'requester',
      'webhook',
    ]);
    // Read before the reply above: the request changed since, and the message is refused with nothing written.
    await expect(addMessage(t.ctx.db, ticket, { ...base, targets: ['requester'] })).rejects.toMatchObject({
      status: 409,
      code: 'conflict',
      fields: [{ field: 'status', message: 'changed meanwhile' }],
    });
    expect(await messagesOf(t.ctx.db, ticket.id, { internal: true })).toHaveLength(2);
    expect(await deliveriesOfTicket(t.ctx.db, ticket.id)).toHaveLength(2);
    const closed = { ...waiting, status: 'closed' as const };
    await expect(addMessage(t.ctx.db, closed, { ...base, targets: [] })).rejects.toMatchObject({
      code: 'closed',
    });
  });
});
