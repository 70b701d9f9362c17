import { Value } from 'typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AdminUserList,
  type AdminUser,
  type AdminUserList as AdminUserListType,
} from '../../../shared/api/admin.ts';
import { expectApiError } from '../../testing/api-expect.ts';
import { buildUser, DEFAULT_PASSWORD } from '../../testing/factories.ts';
import { createTestApp, testDialects, type TestApp } from '../../testing/test-context.ts';
import { adminAndUserTokens, caller, ok, signIn, type Call } from '../../testing/admin-content.ts';

describe.each(testDialects())('branding and users through the admin API on %s', (dialect) => {
  let t: TestApp;
  let as: Call;
  let adminId: number;
  let adminToken: string;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const tokens = await adminAndUserTokens(t);
    as = caller(t, tokens.adminToken);
    adminId = tokens.admin.id;
    adminToken = tokens.adminToken;
  });
  afterAll(async () => t?.close());

  describe('branding', () => {
    it('changes what the public site reads at once', async () => {
      const changed = await ok(
        as('PATCH', '/api/admin/branding', {
          knowledge_title: 'Ask us anything',
          site_title: ' Acme help ',
          lang: 'it',
          knowledge_enabled: false,
          portal_enabled: true,
          project_id: 'acme',
        }),
      );
      const expected = {
        knowledge_enabled: false,
        portal_enabled: true,
        logo_url: null,
        background_url: null,
        project_id: 'acme',
        knowledge_title: 'Ask us anything',
        site_title: 'Acme help',
        lang: 'it',
        footer_links: [],
      };
      expect(changed).toEqual(expected);
      // Visitors are also told the languages the content is in: here the site's alone.
      expect((await t.app.inject('/api/settings/branding')).json()).toEqual({
        ...expected,
        languages: ['it'],
      });
      expect(await ok(as('GET', '/api/admin/branding'))).toEqual(expected);

      await ok(as('PATCH', '/api/admin/branding', { project_id: null, knowledge_enabled: true }));
      expect((await t.app.inject('/api/settings/branding')).json()).toMatchObject({
        project_id: null,
        knowledge_enabled: true,
        site_title: 'Acme help',
      });
    });

    it('refuses unknown languages and unknown files, changing nothing', async () => {
      const before = (await t.app.inject('/api/settings/branding')).json();
      expectApiError(await as('PATCH', '/api/admin/branding', { lang: 'fr' }), 400, ['lang']);
      expectApiError(await as('PATCH', '/api/admin/branding', { background_file_id: 999999 }), 400, [
        'background_file_id',
      ]);
      expect((await t.app.inject('/api/settings/branding')).json()).toEqual(before);
    });
  });

  describe("the footer's links", () => {
    it('stores them in order, trimmed, for every page to read, and [] removes them', async () => {
      const links = [
        { label: ' Status ', url: ' https://status.example.com/ ' },
        { label: 'Privacy', url: '/privacy' },
        { label: 'Kontakt', url: 'http://example.com/contact?from=help#form' },
      ];
      const expected = [
        { label: 'Status', url: 'https://status.example.com/' },
        { label: 'Privacy', url: '/privacy' },
        { label: 'Kontakt', url: 'http://example.com/contact?from=help#form' },
      ];
      expect(await ok(as('PATCH', '/api/admin/branding', { footer_links: links }))).toMatchObject({
        footer_links: expected,
      });
      expect((await t.app.inject('/api/settings/branding')).json().footer_links).toEqual(expected);
      expect((await ok<{ footer_links: unknown }>(as('GET', '/api/admin/branding'))).footer_links).toEqual(
        expected,
      );
      // Another change leaves them as they are.
      await ok(as('PATCH', '/api/admin/branding', { project_id: 'other' }));
      expect((await t.app.inject('/api/settings/branding')).json().footer_links).toEqual(expected);

      await ok(as('PATCH', '/api/admin/branding', { footer_links: [] }));
      expect((await t.app.inject('/api/settings/branding')).json().footer_links).toEqual([]);
    });

    it('refuses addresses that are not http(s) or on this site, and too many or too long, naming the field', async () => {
      const good = { label: 'Status', url: 'https://status.example.com' };
      await ok(as('PATCH', '/api/admin/branding', { footer_links: [good] }));
      const before = (await t.app.inject('/api/settings/branding')).json();
      const refused: [unknown, string][] = [
        [[good, { label: 'Evil', url: 'javascript:alert(1)' }], 'footer_links.1.url'],
        [[{ label: 'Evil', url: ' JavaScript:alert(1)' }], 'footer_links.0.url'],
        [[{ label: 'Data', url: 'data:text/html,<script>alert(1)</script>' }], 'footer_links.0.url'],
        [[{ label: 'Mail', url: 'mailto:help@example.com' }], 'footer_links.0.url'],
        [[{ label: 'Elsewhere', url: '//evil.example.com/' }], 'footer_links.0.url'],
        [[{ label: 'Slash', url: '/\\evil.example.com' }], 'footer_links.0.url'],
        [[{ label: 'Tab', url: 'https://exa\tmple.com' }], 'footer_links.0.url'],
        [[{ label: 'No host', url: 'https://' }], 'footer_links.0.url'],
        [[{ label: 'Relative', url: 'privacy' }], 'footer_links.0.url'],
        [[{ label: 'Blank', url: '   ' }], 'footer_links.0.url'],
        [[{ label: '   ', url: '/privacy' }], 'footer_links.0.label'],
        [[{ label: '', url: '/privacy' }], 'footer_links.0.label'],
        [[{ label: 'x'.repeat(41), url: '/privacy' }], 'footer_links.0.label'],
        [[{ label: 'Long', url: `/${'a'.repeat(500)}` }], 'footer_links.0.url'],
        [[{ label: 'Missing' }], 'footer_links.0.url'],
        [Array.from({ length: 6 }, () => good), 'footer_links'],
        ['Status=/status', 'footer_links.0'],
      ];
      for (const [footerLinks, field] of refused) {
        const response = await as('PATCH', '/api/admin/branding', { footer_links: footerLinks });
        expectApiError(response, 400, [field]);
      }
      expect((await t.app.inject('/api/settings/branding')).json()).toEqual(before);
    });
  });

  describe('users', () => {
    it('lists users without anything secret', async () => {
      const list = await ok<AdminUserListType>(as('GET', '/api/admin/users'));
      expect(Value.Check(AdminUserList, list)).toBe(true);
      expect(list.items.find((u) => u.id === adminId)).toMatchObject({ role: 'admin', email_verified: true });
      expect(list.items[0]?.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T.*Z$/);
      expect(JSON.stringify(list)).not.toMatch(/password|scrypt/);
    });

    it('adds users who can sign in, refusing a taken email', async () => {
      const created = await ok<AdminUser>(
        as('POST', '/api/admin/users', {
          email: 'New.Editor@Example.com',
          name: 'Editor',
          password: 'long enough',
          role: 'admin',
        }),
        201,
      );
      expect(created).toMatchObject({ email: 'new.editor@example.com', name: 'Editor', role: 'admin' });
      await signIn(t, 'new.editor@example.com', 'long enough');
      const taken = expectApiError(
        await as('POST', '/api/admin/users', {
          email: 'new.editor@example.com',
          name: 'Again',
          password: 'long enough',
        }),
        409,
        ['email'],
      );
      expect(taken.code).toBe('user_exists');
      expectApiError(
        await as('POST', '/api/admin/users', { email: 'not-an-email', name: 'X', password: 'long enough' }),
        400,
        ['email'],
      );
      expectApiError(
        await as('POST', '/api/admin/users', { email: 'short@example.com', name: 'X', password: 'short' }),
        400,
        ['password'],
      );
    });

    it('renames users, sets passwords (signing them out) and their role', async () => {
      const user = await buildUser(t.ctx.db);
      const token = await signIn(t, user.email);
      const renamed = await ok<AdminUser>(
        as('PATCH', `/api/admin/users/${user.id}`, { name: 'Renamed', role: 'admin' }),
      );
      expect(renamed).toMatchObject({ name: 'Renamed', role: 'admin' });
      expect((await caller(t, token)('GET', '/api/admin/tree')).statusCode).toBe(200);

      await ok(as('PATCH', `/api/admin/users/${user.id}`, { password: 'a new password', role: 'customer' }));
      expectApiError(await caller(t, token)('GET', '/api/user/me'), 401);
      expectApiError(
        await t.app.inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { email: user.email, password: DEFAULT_PASSWORD },
        }),
        401,
      );
      const fresh = await signIn(t, user.email, 'a new password');
      expectApiError(await caller(t, fresh)('GET', '/api/admin/tree'), 403);

      // An admin changing their own password stays signed in here.
      await ok(as('PATCH', `/api/admin/users/${adminId}`, { password: 'my own new password' }));
      expect((await as('GET', '/api/admin/users')).statusCode).toBe(200);
      expectApiError(await as('PATCH', '/api/admin/users/999999', { name: 'Nobody' }), 404);
    });

    it('keeps an admin from taking away their own role or account, so the last admin stays', async () => {
      const other = await buildUser(t.ctx.db, { role: 'admin' });
      await ok(as('PATCH', `/api/admin/users/${other.id}`, { role: 'agent' }));
      for (const role of ['agent', 'customer']) {
        const own = expectApiError(await as('PATCH', `/api/admin/users/${adminId}`, { role }), 409, ['role']);
        expect(own.code).toBe('own_account');
      }
      expect(expectApiError(await as('DELETE', `/api/admin/users/${adminId}`), 409).code).toBe('own_account');
      const admins = (await ok<AdminUserListType>(as('GET', '/api/admin/users'))).items.filter(
        (u) => u.role === 'admin',
      );
      expect(admins.map((u) => u.id)).toContain(adminId);
      expect((await as('GET', '/api/admin/tree')).statusCode).toBe(200);
      expect(adminToken).toBeTruthy();
    });

    it('refuses a field it does not know, naming it, and changes nothing (an old client’s is_admin)', async () => {
      const user = await buildUser(t.ctx.db);
      const refused = expectApiError(
        await as('PATCH', `/api/admin/users/${user.id}`, { is_admin: true, name: 'Promoted?' }),
        400,
        ['is_admin'],
      );
      expect(refused.data.errors[0]?.message).toBe('is not a known field');
      const list = await ok<AdminUserListType>(as('GET', '/api/admin/users?group=customers'));
      expect(list.items.find((u) => u.id === user.id)).toMatchObject({ role: 'customer', name: user.name });
    });

    it('lists the team and the customers apart, a page of 50 at a time, oldest first', async () => {
      const agent = await ok<AdminUser>(
        as('POST', '/api/admin/users', {
          email: 'agent.a@example.com',
          name: 'Agent A',
          password: 'long enough',
          role: 'agent',
        }),
        201,
      );
      const customers = [];
      for (let i = 0; i < 51; i++) customers.push(await buildUser(t.ctx.db, { role: 'customer' }));
      const team = await ok<AdminUserListType>(as('GET', '/api/admin/users'));
      expect(team.items.every((u) => u.role === 'admin' || u.role === 'agent')).toBe(true);
      expect(team.items.map((u) => u.id)).toContain(agent.id);
      expect(team.items.map((u) => u.id)).not.toContain(customers[0]!.id);

      const first = await ok<AdminUserListType>(as('GET', '/api/admin/users?group=customers'));
      expect(first._meta).toMatchObject({ perPage: 50, currentPage: 1 });
      expect(first.items).toHaveLength(50);
      expect(first.items.every((u) => u.role === 'customer')).toBe(true);
      const all = first._meta.totalCount;
      expect(all).toBeGreaterThanOrEqual(51);
      const last = await ok<AdminUserListType>(
        as('GET', `/api/admin/users?group=customers&page=${first._meta.pageCount}`),
      );
      expect(last.items.at(-1)?.id).toBe(customers.at(-1)!.id);
      expect(first._meta.pageCount).toBe(Math.ceil(all / 50));
      expectApiError(await as('GET', '/api/admin/users?group=everyone'), 400, ['group']);
      expectApiError(await as('GET', '/api/admin/users?page=0'), 400, ['page']);
    });

    it('lets an agent read tickets and nothing an admin keeps, and a customer neither', async () => {
      const agent = await buildUser(t.ctx.db, { role: 'agent' });
      const asAgent = caller(t, await signIn(t, agent.email));
      const me = await ok<{ role: string }>(asAgent('GET', '/api/user/me'));
      expect(me.role).toBe('agent');
      expect((await asAgent('GET', '/api/admin/tickets')).statusCode).toBe(200);
      for (const path of ['/api/admin/tree', '/api/admin/users', '/api/admin/branding']) {
        expectApiError(await asAgent('GET', path), 403);
      }
      expectApiError(await asAgent('PATCH', `/api/admin/users/${agent.id}`, { role: 'admin' }), 403);
      const customer = await buildUser(t.ctx.db, { role: 'customer' });
      const asCustomer = caller(t, await signIn(t, customer.email));
      expectApiError(await asCustomer('GET', '/api/admin/tickets'), 403);
      expectApiError(await caller(t, undefined)('GET', '/api/admin/tickets'), 401);
    });

    it('deletes a user and every token of theirs', async () => {
      const user = await buildUser(t.ctx.db);
      const token = await signIn(t, user.email);
      await signIn(t, user.email);
      expect(await ok(as('DELETE', `/api/admin/users/${user.id}`))).toEqual({ ok: true });
      expectApiError(await caller(t, token)('GET', '/api/user/me'), 401);
      const tokens = await t.ctx.db
        .selectFrom('auth_tokens')
        .select('user_id')
        .where('user_id', '=', user.id)
        .execute();
      expect(tokens).toEqual([]);
      expect(
        (await ok<AdminUserListType>(as('GET', '/api/admin/users'))).items.some((u) => u.id === user.id),
      ).toBe(false);
      expectApiError(await as('DELETE', `/api/admin/users/${user.id}`), 404);
    });
  });
});
