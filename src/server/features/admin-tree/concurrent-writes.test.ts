import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Branding } from '../../../shared/api/settings.ts';
import type { UserRow } from '../../db/tables.ts';
import { expectApiError } from '../../testing/api-expect.ts';
import { buildCategory, buildSection, buildUser } from '../../testing/factories.ts';
import { createTestApp, testDialects, type TestApp } from '../../testing/test-context.ts';
import { caller, ok, signIn, type Call } from '../../testing/admin-content.ts';

// Requests sent together through the API race for real on PostgreSQL (a pool of connections, READ COMMITTED); on
// SQLite they are applied one at a time. Each race is run several times, since one round may happen not to overlap.
const ROUNDS = 10;

const statuses = (responses: LightMyRequestResponse[]) => responses.map((r) => r.statusCode).sort();

describe.each(testDialects())('writes made at the same moment on %s', (dialect) => {
  let t: TestApp;
  let first: { user: UserRow; as: Call };

  const signedIn = async (user: UserRow) => ({ user, as: caller(t, await signIn(t, user.email)) });
  const adminIds = async () =>
    (await t.ctx.db.selectFrom('users').select('id').where('role', '=', 'admin').execute()).map((u) => u.id);

  beforeAll(async () => {
    t = await createTestApp(dialect);
    first = await signedIn(await buildUser(t.ctx.db, { role: 'admin' }));
  });
  afterAll(async () => t?.close());

  describe('category moves', () => {
    /** Every category reaches the top of its section by following parents (the tree has no loop). */
    async function expectNoLoop() {
      const rows = await t.ctx.db.selectFrom('categories').select(['id', 'parent_id']).execute();
      const parent = new Map(rows.map((r) => [r.id, r.parent_id]));
      for (const row of rows) {
        const seen = new Set<number>();
        for (let at: number | null | undefined = row.id; at != null; at = parent.get(at)) {
          expect(seen.has(at), `category ${row.id} is inside itself`).toBe(false);
          seen.add(at);
        }
      }
    }
    // Into the parent's section, whichever that is by the time the move is made.
    const move = (id: number, parentId: number) =>
      first.as('POST', '/api/admin/move', { kind: 'category', id, parent_id: parentId, index: 0 });

    it('never makes a loop of two moving into each other', async () => {
      for (let round = 0; round < ROUNDS; round++) {
        const section = await buildSection(t.ctx.db);
        const a = await buildCategory(t.ctx.db, { section_id: section.id });
        const b = await buildCategory(t.ctx.db, { section_id: section.id });
        const responses = await Promise.all([move(a.id, b.id), move(b.id, a.id)]);
        expect(statuses(responses)).toEqual([200, 409]);
        const refused = responses.find((r) => r.statusCode === 409) as LightMyRequestResponse;
        expect(expectApiError(refused, 409, ['parent_id']).code).toBe('invalid_move');
        await expectNoLoop();
      }
    });

    // The moves share no row here (A under B's child, B under A's child): locking the rows moved would not do.
    it('never makes a loop through categories neither move names, across sections', async () => {
      for (let round = 0; round < ROUNDS; round++) {
        const [left, right] = [await buildSection(t.ctx.db), await buildSection(t.ctx.db)];
        const a = await buildCategory(t.ctx.db, { section_id: left.id });
        const aChild = await buildCategory(t.ctx.db, { section_id: left.id, parent_id: a.id });
        const b = await buildCategory(t.ctx.db, { section_id: right.id });
        const bChild = await buildCategory(t.ctx.db, { section_id: right.id, parent_id: b.id });
        const responses = await Promise.all([move(a.id, bChild.id), move(b.id, aChild.id)]);
        expect(statuses(responses)).toEqual([200, 409]);
        await expectNoLoop();
      }
    });
  });

  it('keeps both of two branding changes made at the same moment', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const site_title = `Site ${round}`;
      const knowledge_title = `Knowledge ${round}`;
      await Promise.all([
        ok(first.as('PATCH', '/api/admin/branding', { site_title })),
        ok(first.as('PATCH', '/api/admin/branding', { knowledge_title })),
        ok(first.as('PATCH', '/api/admin/branding', { portal_enabled: round % 2 === 0 })),
      ]);
      const branding = await ok<Branding>(first.as('GET', '/api/admin/branding'));
      expect(branding).toMatchObject({ site_title, knowledge_title, portal_enabled: round % 2 === 0 });
    }
  });

  describe('admins acting on each other', () => {
    // Last in the file: these leave whichever admin won. The race needs exactly two admins.
    async function twoAdmins() {
      const admins = await t.ctx.db.selectFrom('users').selectAll().where('role', '=', 'admin').execute();
      expect(admins).toHaveLength(1);
      return [
        await signedIn(admins[0] as UserRow),
        await signedIn(await buildUser(t.ctx.db, { role: 'admin' })),
      ] as const;
    }
    /** One of the two went through; the other was refused, as its admin was no longer one (or no longer there). */
    const oneWon = (responses: LightMyRequestResponse[]) => {
      const [won, lost] = statuses(responses);
      expect(won).toBe(200);
      expect([401, 403]).toContain(lost);
    };

    it('leaves an admin when two take away each other’s admin role', async () => {
      const [a, b] = await twoAdmins();
      for (let round = 0; round < ROUNDS; round++) {
        const responses = await Promise.all([
          a.as('PATCH', `/api/admin/users/${b.user.id}`, { role: 'customer' }),
          b.as('PATCH', `/api/admin/users/${a.user.id}`, { role: 'customer' }),
        ]);
        oneWon(responses);
        const admins = await adminIds();
        expect(admins).toHaveLength(1);
        const [winner, loser] = admins[0] === a.user.id ? [a, b] : [b, a];
        await ok(winner.as('PATCH', `/api/admin/users/${loser.user.id}`, { role: 'admin' }));
      }
      await ok(a.as('PATCH', `/api/admin/users/${b.user.id}`, { role: 'customer' }));
    });

    it('leaves an admin when two delete each other', async () => {
      for (let round = 0; round < ROUNDS; round++) {
        const [a, b] = await twoAdmins();
        const responses = await Promise.all([
          a.as('DELETE', `/api/admin/users/${b.user.id}`),
          b.as('DELETE', `/api/admin/users/${a.user.id}`),
        ]);
        oneWon(responses);
        expect(await adminIds()).toHaveLength(1);
      }
    });
  });
});
