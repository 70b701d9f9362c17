import { sql } from 'kysely';
import { Value } from 'typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Paged } from '../../../shared/api/common.ts';
import { TicketView } from '../../../shared/api/tickets.ts';
import type { FileRow, TicketRow } from '../../db/tables.ts';
import { expectApiError } from '../../testing/api-expect.ts';
import { buildUser, DEFAULT_PASSWORD } from '../../testing/factories.ts';
import { createTestApp, testDialects, type TestApp } from '../../testing/test-context.ts';
import { addMessage, deliverDue, findTicket } from '../../tickets/index.ts';
import { buildTicket, buildUpload } from '../../testing/ticket-fixtures.ts';
import { writeTicketIfUnchanged } from './admin-tickets.repository.ts';

const TicketPage = Paged(TicketView);

describe.each(testDialects())('admin tickets API on %s', (dialect) => {
  let t: TestApp;
  let adminToken: string;
  let userToken: string;
  let tickets: TicketRow[];
  let file: FileRow;
  const start = Date.UTC(2025, 0, 2, 10, 0, 0);

  const signIn = async (email: string) =>
    (
      await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email, password: DEFAULT_PASSWORD },
      })
    ).json<{
      token: string;
    }>().token;
  const get = (url: string, token?: string) =>
    t.app.inject({ url, headers: token === undefined ? {} : { 'x-auth-token': token } });

  beforeAll(async () => {
    // The webhook goes nowhere (a port fetch refuses to use), so its row records a failure the API must show.
    t = await createTestApp(dialect, { TICKET_WEBHOOK_URL: 'http://127.0.0.1:9/' });
    const admin = await buildUser(t.ctx.db, { role: 'admin' });
    const user = await buildUser(t.ctx.db);
    adminToken = await signIn(admin.email);
    userToken = await signIn(user.email);
    file = await buildUpload(t.ctx, 'screen.png', 'not really a png');
    tickets = [];
    for (let i = 0; i < 5; i++) {
      tickets.push(
        await buildTicket(t.ctx, {
          now: start + i * 60_000,
          files: i === 0 ? [file] : [],
          targets: i === 0 ? ['webhook'] : [],
          title: `Request ${i}`,
          user_id: i === 1 ? user.id : null,
        }),
      );
    }
    await deliverDue(t.ctx, start);
  });
  afterAll(async () => t?.close());

  it('lists tickets newest first, paged, with files and delivery state', async () => {
    const response = await get('/api/admin/tickets?page=2&per_page=2', adminToken);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(Value.Check(TicketPage, body)).toBe(true);
    expect(body._meta).toEqual({ pageCount: 3, totalCount: 5, currentPage: 2, perPage: 2 });
    expect(body.items.map((item: TicketView) => item.title)).toEqual(['Request 2', 'Request 1']);

    const all = (await get('/api/admin/tickets', adminToken)).json();
    expect(all._meta).toEqual({ pageCount: 1, totalCount: 5, currentPage: 1, perPage: 20 });
    expect(all.items.map((item: TicketView) => item.id)).toEqual(
      [...tickets].reverse().map((ticket) => ticket.id),
    );
    const oldest = all.items.at(-1) as TicketView;
    expect(oldest).toMatchObject({
      id: tickets[0]!.id,
      title: 'Request 0',
      created_at: new Date(start).toISOString(),
      files: [{ id: file.id, original_name: 'screen.png', file_size: 'not really a png'.length }],
      deliveries: [{ target: 'webhook', status: 'pending', attempts: 1, delivered_at: null }],
    });
    expect(oldest.deliveries[0]?.last_error).toMatch(/^fetch failed: /);

    const past = (await get('/api/admin/tickets?page=1000000', adminToken)).json();
    expect(past).toEqual({
      items: [],
      _meta: { pageCount: 1, totalCount: 5, currentPage: 1000000, perPage: 20 },
    });
    expectApiError(await get('/api/admin/tickets?page=1000001', adminToken), 400, ['page']);
  });

  it('shows one ticket with every field', async () => {
    const response = await get(`/api/admin/tickets/${tickets[1]!.id}`, adminToken);
    expect(response.statusCode, response.body).toBe(200);
    const ticket = tickets[1]!;
    expect(response.json()).toEqual({
      id: ticket.id,
      title: 'Request 1',
      description: ticket.description,
      name: ticket.name,
      email: ticket.email,
      channel: 'web',
      user_id: ticket.user_id,
      lang: 'en',
      created_at: new Date(start + 60_000).toISOString(),
      status: 'new',
      assignee_id: null,
      updated_at: new Date(start + 60_000).toISOString(),
      files: [],
      messages: [],
      deliveries: [],
    });
    expectApiError(await get('/api/admin/tickets/999999', adminToken), 404);
    expectApiError(await get('/api/admin/tickets/abc', adminToken), 400, ['id']);
  });

  it.each(['/api/admin/tickets', '/api/admin/tickets/1', '/api/admin/ticket-routing'])(
    'answers 401 and 403 on %s',
    async (url) => {
      expectApiError(await get(url), 401);
      expectApiError(await get(url, 'not-a-token'), 401);
      expectApiError(await get(url, userToken), 403);
    },
  );

  it('answers 401 once the token is revoked', async () => {
    const admin = await buildUser(t.ctx.db, { role: 'admin' });
    const token = await signIn(admin.email);
    expect((await get('/api/admin/tickets', token)).statusCode).toBe(200);
    await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { 'x-auth-token': token } });
    expectApiError(await get('/api/admin/tickets', token), 401);
  });

  it('rejects bad paging', async () => {
    expectApiError(await get('/api/admin/tickets?page=0', adminToken), 400, ['page']);
    expectApiError(await get('/api/admin/tickets?per_page=101', adminToken), 400, ['per_page']);
    expectApiError(await get('/api/admin/tickets?per_page=x', adminToken), 400, ['per_page']);
  });

  it("lists the requester's other requests, by email in any case or by account, never another's", async () => {
    const ids = async (id: number) =>
      (await get(`/api/admin/tickets/${id}/related`, adminToken))
        .json<{ items: { id: number }[] }>()
        .items.map((item) => item.id);
    const shouting = await buildTicket(t.ctx, { email: 'ANN@example.com', targets: [], now: start - 60_000 });
    const stranger = await buildTicket(t.ctx, { email: 'zed@example.com', targets: [], now: start });
    // The signed-in requester wrote once from another address.
    const fromAccount = await buildTicket(t.ctx, {
      email: 'other-address@example.com',
      user_id: tickets[1]!.user_id,
      targets: [],
      now: start,
    });
    expect(await ids(tickets[0]!.id)).toEqual([
      ...tickets
        .slice(1)
        .reverse()
        .map((ticket) => ticket.id),
      shouting.id,
    ]);
    expect(await ids(fromAccount.id)).toContain(tickets[1]!.id);
    expect(await ids(stranger.id)).toEqual([]);
    expectApiError(await get(`/api/admin/tickets/${tickets[0]!.id}/related`, userToken), 403);
    expectApiError(await get('/api/admin/tickets/999999/related', adminToken), 404);
  });

  describe('status and assignee', () => {
    const patch = (id: number, body: unknown, token = adminToken) =>
      t.app.inject({
        method: 'PATCH',
        url: `/api/admin/tickets/${id}`,
        headers: { 'x-auth-token': token },
        payload: body as object,
      });

    it('moves a request only by the allowed steps, and a closed one nowhere', async () => {
      const id = tickets[2]!.id;
      const before = Date.now();
      const opened = (await patch(id, { status: 'open' })).json<{ status: string; updated_at: string }>();
      expect(opened.status).toBe('open');
      expect(Date.parse(opened.updated_at)).toBeGreaterThanOrEqual(before - 1000);
      const back = expectApiError(await patch(id, { status: 'new' }), 409, ['status']);
      expect(back.code).toBe('invalid_transition');
      for (const status of ['waiting', 'open', 'solved', 'open', 'solved', 'closed']) {
        expect((await patch(id, { status })).json<{ status: string }>().status).toBe(status);
      }
      for (const status of ['open', 'new', 'solved', 'waiting']) {
        expectApiError(await patch(id, { status }), 409, ['status']);
      }
      expectApiError(await patch(id, { status: 'lost' }), 400, ['status']);
      expect((await get(`/api/admin/tickets/${id}`, adminToken)).json<{ status: string }>().status).toBe(
        'closed',
      );
    });

    it('gives a request to a member of the team or to nobody, never to a customer', async () => {
      const id = tickets[3]!.id;
      const agent = await buildUser(t.ctx.db, { role: 'agent' });
      const customer = await buildUser(t.ctx.db, { role: 'customer' });
      const agentToken = await signIn(agent.email);
      const given = (await patch(id, { assignee_id: agent.id }, agentToken)).json<{ assignee_id: number }>();
      expect(given.assignee_id).toBe(agent.id);
      expectApiError(await patch(id, { assignee_id: customer.id }), 400, ['assignee_id']);
      expectApiError(await patch(id, { assignee_id: 999999 }), 400, ['assignee_id']);
      expectApiError(await patch(id, { assignee: agent.id }), 400, ['assignee']);
      expect((await patch(id, { assignee_id: null })).json<{ assignee_id: null }>().assignee_id).toBeNull();
      expectApiError(await patch(id, { status: 'open' }, userToken), 403);
      expectApiError(await patch(999999, { status: 'open' }), 404);
    });
  });

  it('says where new requests go: here the webhook, not email, with how many are kept', async () => {
    const routing = (await get('/api/admin/ticket-routing', adminToken)).json();
    const stored = (await get('/api/admin/tickets', adminToken)).json<{ _meta: { totalCount: number } }>();
    expect(routing).toEqual({ email: false, webhook: true, mail: false, stored: stored._meta.totalCount });
    expect(stored._meta.totalCount).toBeGreaterThanOrEqual(5);
  });
});

describe.each(testDialects())('the counts of requests by status, on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t?.close());

  /** Counted afresh from the rows, to hold the kept counts against. */
  const counted = async () => {
    const rows = await t.ctx.db
      .selectFrom('tickets')
      .select(['status', (eb) => eb.fn.countAll<number | string>().as('count')])
      .groupBy('status')
      .execute();
    return Object.fromEntries(rows.map((row) => [row.status, Number(row.count)]));
  };
  const kept = async () => {
    const admin = await buildUser(t.ctx.db, { role: 'admin' });
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: admin.email, password: DEFAULT_PASSWORD },
    });
    const headers = { 'x-auth-token': login.json<{ token: string }>().token };
    const counts = (await t.app.inject({ url: '/api/admin/ticket-counts', headers })).json<
      Record<string, number>
    >();
    const all = (await t.app.inject({ url: '/api/admin/tickets?per_page=1', headers })).json<{
      _meta: { totalCount: number };
    }>()._meta.totalCount;
    const waiting = (
      await t.app.inject({ url: '/api/admin/tickets?status=waiting&per_page=1', headers })
    ).json<{
      _meta: { totalCount: number };
    }>()._meta.totalCount;
    return { counts: Object.fromEntries(Object.entries(counts).filter(([, n]) => n > 0)), all, waiting };
  };

  it('stay exact as requests arrive, move between statuses and go, read without counting the rows', async () => {
    const made = [];
    for (let i = 0; i < 6; i++) made.push(await buildTicket(t.ctx, { targets: [] }));
    const { db } = t.ctx;
    await db
      .updateTable('tickets')
      .set({ status: 'waiting' })
      .where('id', 'in', [made[0]!.id, made[1]!.id])
      .execute();
    await db.updateTable('tickets').set({ status: 'closed' }).where('id', '=', made[2]!.id).execute();
    // A write that leaves the status as it was changes no count.
    await db.updateTable('tickets').set({ title: 'Renamed' }).where('id', '=', made[3]!.id).execute();
    await db.deleteFrom('tickets').where('id', '=', made[4]!.id).execute();
    const now = await counted();
    expect(now).toEqual({ new: 2, waiting: 2, closed: 1 });
    expect(await kept()).toEqual({ counts: now, all: 5, waiting: 2 });
  });
});

describe.each(testDialects())('giving a request to someone, on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t?.close());

  it('writes an assignee only while they are on the team, however late they left it', async () => {
    const ticket = await buildTicket(t.ctx, { targets: [] });
    const agent = await buildUser(t.ctx.db, { role: 'agent' });
    // Checked while an agent, demoted before the write: the write itself refuses.
    await t.ctx.db.updateTable('users').set({ role: 'customer' }).where('id', '=', agent.id).execute();
    const written = await writeTicketIfUnchanged(t.ctx.db, ticket, {
      status: ticket.status,
      assignee_id: agent.id,
      updated_at: Date.now(),
    });
    expect(written).toBe(false);
    expect((await findTicket(t.ctx.db, ticket.id))?.assignee_id).toBeNull();
    await t.ctx.db.updateTable('users').set({ role: 'agent' }).where('id', '=', agent.id).execute();
    expect(
      await writeTicketIfUnchanged(t.ctx.db, ticket, {
        status: ticket.status,
        assignee_id: agent.id,
        updated_at: Date.now(),
      }),
    ).toBe(true);
    expect((await findTicket(t.ctx.db, ticket.id))?.assignee_id).toBe(agent.id);
  });

  // SQLite runs one writing transaction at a time, so there is no demotion under way to wait for.
  if (dialect === 'postgres')
    it('waits for a demotion under way and then refuses, instead of writing beside it', async () => {
      const ticket = await buildTicket(t.ctx, { targets: [] });
      const agent = await buildUser(t.ctx.db, { role: 'agent' });
      const admin = await buildUser(t.ctx.db, { role: 'admin' });
      const login = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: admin.email, password: DEFAULT_PASSWORD },
      });
      const token = login.json<{ token: string }>().token;
      // Another administrator demotes the agent in a transaction that has not committed yet.
      let commit!: () => void;
      const held = new Promise<void>((resolve) => (commit = resolve));
      let demoted!: () => void;
      const written = new Promise<void>((resolve) => (demoted = resolve));
      const demotion = t.ctx.db.transaction().execute(async (trx) => {
        await trx.updateTable('users').set({ role: 'customer' }).where('id', '=', agent.id).execute();
        demoted();
        await held;
      });
      await written;
      const assigning = t.app.inject({
        method: 'PATCH',
        url: `/api/admin/tickets/${ticket.id}`,
        headers: { 'x-auth-token': token },
        payload: { assignee_id: agent.id },
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      commit();
      await demotion;
      expectApiError(await assigning, 400, ['assignee_id']);
      expect((await findTicket(t.ctx.db, ticket.id))?.assignee_id).toBeNull();
    });
});

describe.each(testDialects())('a help centre whose requests reach nobody, on %s', (dialect) => {
  let t: TestApp;
  afterAll(async () => t?.close());

  it('says so to the team, and to an agent too', async () => {
    t = await createTestApp(dialect);
    const agent = await buildUser(t.ctx.db, { role: 'agent' });
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: agent.email, password: DEFAULT_PASSWORD },
    });
    const response = await t.app.inject({
      url: '/api/admin/ticket-routing',
      headers: { 'x-auth-token': login.json<{ token: string }>().token },
    });
    expect(response.json()).toEqual({ email: false, webhook: false, mail: false, stored: 0 });
  });
});

describe.each(testDialects())('searching the inbox on %s', (dialect) => {
  let t: TestApp;
  let token: string;
  let thermostat: TicketRow;
  let boiler: TicketRow;
  let russian: TicketRow;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const agent = await buildUser(t.ctx.db, { role: 'agent', name: 'Dana Desk' });
    token = (
      await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: agent.email, password: DEFAULT_PASSWORD },
      })
    ).json<{ token: string }>().token;
    thermostat = await buildTicket(t.ctx, {
      title: 'Thermostat shows E42',
      description: 'Since yesterday.',
      email: 'ann.lee@northwind.example',
      targets: [],
    });
    boiler = await buildTicket(t.ctx, {
      title: 'Boiler noise',
      description: 'It rattles.',
      email: 'bob@contoso.example',
      targets: [],
    });
    russian = await buildTicket(t.ctx, {
      title: 'Термостат не греет',
      description: 'Ошибка на экране.',
      email: 'ivan@example.org',
      lang: 'ru',
      targets: [],
    });
    const author = { id: agent.id, name: agent.name, fromTeam: true };
    await addMessage(t.ctx.db, boiler, {
      author,
      text: 'Please update the firmware to 2.0.4.',
      internal: false,
      fileIds: [],
      targets: [],
    });
    await addMessage(t.ctx.db, (await findTicket(t.ctx.db, boiler.id))!, {
      author,
      text: 'Known sensorglitch in this batch.',
      internal: true,
      fileIds: [],
      targets: [],
    });
  });
  afterAll(async () => t?.close());

  const found = async (q: string) => {
    const response = await t.app.inject({
      url: `/api/admin/tickets?q=${encodeURIComponent(q)}`,
      headers: { 'x-auth-token': token },
    });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<{ items: TicketView[]; _meta: { totalCount: number } }>();
    expect(body._meta.totalCount).toBe(body.items.length);
    return body.items.map((item) => item.id).sort((a, b) => a - b);
  };

  it('finds requests by words and word starts in their title, text, email and messages, notes included', async () => {
    expect(await found('thermostat')).toEqual([thermostat.id]);
    // A word is found whole; its start only when asked with '*'.
    expect(await found('THERMO')).toEqual([]);
    expect(await found('THERMO*')).toEqual([thermostat.id]);
    expect(await found('e42')).toEqual([thermostat.id]);
    expect(await found('yesterday')).toEqual([thermostat.id]);
    expect(await found('northwind')).toEqual([thermostat.id]);
    expect(await found('ann.lee@northwind.example')).toEqual([thermostat.id]);
    expect(await found('firmware 2.0.4')).toEqual([boiler.id]);
    expect(await found('sensorglitch')).toEqual([boiler.id]);
    expect(await found('термо*')).toEqual([russian.id]);
    expect(await found('Термостат')).toEqual([russian.id]);
    expect(await found('ошибка экране')).toEqual([russian.id]);
    expect(await found('thermostat boiler')).toEqual([]);
    expect(await found('zzzz')).toEqual([]);
  });

  it('searches within the chosen status, and ignores a query without words', async () => {
    const withStatus = await t.app.inject({
      url: '/api/admin/tickets?q=thermostat&status=solved',
      headers: { 'x-auth-token': token },
    });
    expect(withStatus.json<{ items: unknown[] }>().items).toEqual([]);
    expect(await found('!!! ...')).toEqual([thermostat.id, boiler.id, russian.id].sort((a, b) => a - b));
    // SQL and the search syntaxes of both databases are words like any other.
    expect(await found(`" OR 1=1 -- ' & | ! :* NEAR(`)).toEqual([]);
  });

  /** A request stored with the id given (the search reads texts by their ids' age). */
  const requestAt = (id: number, title: string, description: string) =>
    t.ctx.db
      .insertInto('tickets')
      .values({
        id,
        title,
        description,
        name: 'Ann Archive',
        email: 'archive@example.com',
        channel: 'web',
        user_id: null,
        lang: 'en',
        created_at: Date.now(),
        assignee_id: null,
        updated_at: Date.now(),
      })
      .execute();

  // A text's own words can look like a block's word on PostgreSQL (its parser keeps `x~m5` as one token, `~m5`).
  if (dialect === 'postgres')
    it('counts each text once, whatever block words its own text holds', async () => {
      const now = Date.now();
      const ticketIds = [700_001, 700_002, 700_003];
      for (const id of ticketIds) await requestAt(id, `Crowded ${id}`, 'Nothing.');
      // Blocks of 4,096 ids: 300 matches in the newest two (9 and 10, one of them also naming block 5), then 700
      // in blocks 1 to 8, whose oldest belongs to a request of its own. The newest 1,000 texts reach it.
      const insert = (first: number, count: number, ticket: number, text: string) =>
        sql`insert into ticket_messages (id, ticket_id, author_id, author_name, from_team, internal, body_text,
            body_html, created_at)
          select g, ${ticket}, null, 'Crowd', 0, 0, ${text}, '', ${now} from generate_series(${first}::int, ${first + count - 1}::int) g`.execute(
          t.ctx.db,
        );
      await insert(4_096 * 9, 299, 700_001, 'The gizmo hums.');
      await insert(4_096 * 11 - 1, 1, 700_001, 'The gizmo hums x~m5');
      await insert(4_096 * 9 - 699, 699, 700_002, 'The gizmo hums.');
      await insert(4_096 * 9 - 700, 1, 700_003, 'The gizmo hums.');
      expect(await found('gizmo')).toEqual(ticketIds);
    });

  it('finds texts of every age, however far their ids lie behind the newest', async () => {
    // Ids spread over many blocks of 4,096 (the steps a search widens by on PostgreSQL), newest far ahead.
    const ids = [20_000, 90_000, 400_000, 1_000_000];
    const now = Date.now();
    for (const [i, id] of ids.entries()) {
      await requestAt(id, `Old request ${i}`, i === 0 ? 'The pump hums.' : 'Nothing.');
      await t.ctx.db
        .insertInto('ticket_messages')
        .values({
          id: id + 7,
          ticket_id: id,
          author_id: null,
          author_name: 'Old Timer',
          from_team: 0,
          internal: 0,
          body_text: i === 2 ? 'Still the pump.' : 'Any news?',
          body_html: '',
          created_at: now,
        })
        .execute();
    }
    expect(await found('pump')).toEqual([20_000, 400_000]);
    expect(await found('old')).toEqual(ids);
    expect(await found('news')).toEqual([20_000, 90_000, 1_000_000]);
  });
});
