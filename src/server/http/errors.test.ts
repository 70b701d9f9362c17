import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify, { type InjectOptions } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectApiError } from '../testing/api-expect.ts';
import { buildUser, DEFAULT_PASSWORD } from '../testing/factories.ts';
import { registerErrorHandling } from './errors.ts';
import { createTestApp, testDialects, type TestApp } from '../testing/test-context.ts';

describe.each(testDialects())('errors on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t?.close());

  /** A new administrator, signed in: the headers that carry the token. */
  async function signedInAdmin() {
    const user = await buildUser(t.ctx.db, { role: 'admin' });
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: user.email, password: DEFAULT_PASSWORD },
    });
    return { user, headers: { 'x-auth-token': (login.json() as { token: string }).token } };
  }

  it('answers 404 JSON for an unknown route under /api, naming it', async () => {
    for (const url of [
      '/api/nope',
      '/api/knowledge',
      '/api/knowledge/instruction/1/extra',
      '/panel/api/v2/nope',
    ]) {
      const error = expectApiError(await t.app.inject(url), 404, []);
      expect(error.code).toBe('not_found');
      expect(error.message).toContain(url);
    }
  });

  it('answers 404 JSON for a method a route does not have', async () => {
    for (const [method, url] of [
      ['POST', '/api/knowledge/all-sections'],
      ['DELETE', '/api/settings/branding'],
      ['GET', '/api/auth/login'],
    ] as const) {
      const error = expectApiError(await t.app.inject({ method, url }), 404, []);
      expect(error.message).toBe(`No route for ${method} ${url}`);
    }
  });

  it('answers every kind of failure in the same shape', async () => {
    const json = { 'content-type': 'application/json' };
    const failures: [string | InjectOptions, number][] = [
      ['/api/knowledge/category?page=abc', 400],
      ['/api/knowledge/instruction/0', 400],
      ['/api/search/knowledge/suggestions', 400],
      ['/files/x/y.pdf', 400],
      [{ method: 'POST', url: '/api/auth/login', headers: json, payload: '{not json' }, 400],
      [{ method: 'POST', url: '/api/auth/login', headers: json, payload: '{}' }, 400],
      [{ method: 'POST', url: '/api/auth/login', payload: { email: 'a@b.c', password: 'nope' } }, 401],
      ['/api/user/me', 401],
      ['/api/knowledge/instruction/424242', 404],
      ['/api/knowledge/category?category_parent_id=424242', 404],
      ['/files/424242/x.pdf', 404],
      [
        {
          method: 'POST',
          url: '/api/auth/login',
          headers: { 'content-type': 'application/xml' },
          payload: '<a/>',
        },
        415,
      ],
      [
        {
          method: 'POST',
          url: '/api/auth/login',
          headers: json,
          payload: `"${'x'.repeat(2 * 1024 * 1024)}"`,
        },
        413,
      ],
    ];
    for (const [request, status] of failures) {
      const response = await t.app.inject(request);
      const error = expectApiError(response, status);
      expect(error.code, JSON.stringify(error)).toMatch(/^[a-z_]+$/);
      expect(error.message.length).toBeGreaterThan(0);
      expect(response.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  it('lists every bad field at once, each with a message', async () => {
    const error = expectApiError(
      await t.app.inject('/api/knowledge/instruction?page=0&per_page=x&category_id=-1'),
      400,
      ['page', 'per_page', 'category_id'],
    );
    expect(error.data.errors).toEqual(
      expect.arrayContaining([
        { field: 'page', message: 'must be at least 1' },
        { field: 'per_page', message: 'must be a whole number' },
        { field: 'category_id', message: 'must be at least 1' },
      ]),
    );
  });

  it('refuses numbers no count or page can be (infinite, past 2^53, past the last page), naming the field', async () => {
    const { headers } = await signedInAdmin();
    const lists = [
      ['/api/knowledge/category?query=1&', 'page'],
      ['/api/knowledge/category?query=1&', 'per_page'],
      ['/api/knowledge/instruction?query=1&', 'page'],
      ['/api/knowledge/instruction?query=1&', 'per_page'],
      ['/api/admin/tickets?', 'page'],
      ['/api/admin/tickets?', 'per_page'],
      ['/api/search/knowledge/suggestions?text=wifi&', 'limit'],
      ['/api/admin/search-report?', 'limit'],
    ] as const;
    for (const [list, field] of lists) {
      for (const value of ['Infinity', '-Infinity', '1e309', '1e308', '99999999999999999999999']) {
        const response = await t.app.inject({ url: `${list}${field}=${value}`, headers });
        expectApiError(response, 400, [field]);
      }
    }
    expectApiError(await t.app.inject('/api/knowledge/instruction/Infinity'), 400, ['id']);
    const ticket = { title: 'Help', description: 'It broke', name: 'Ann', email: 'ann@example.com' };
    for (const files of [[2_147_483_648], [1e308]]) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/panel/api/issue-open',
        payload: { ...ticket, files },
      });
      expectApiError(response, 400, ['files.0']);
    }
    expectApiError(await t.app.inject('/files/-Infinity/a.txt'), 400, ['id']);
  });

  it('reads a number in the address only as plain decimal digits (0x10 deleted row 16), naming the field', async () => {
    const { headers } = await signedInAdmin();
    for (const id of ['0x10', '1e1', '%201%20', '0b1', '+1', '1.0']) {
      expectApiError(await t.app.inject(`/api/knowledge/instruction/${id}`), 400, ['id']);
      expectApiError(
        await t.app.inject({ method: 'DELETE', url: `/api/admin/sections/${id}`, headers }),
        400,
        ['id'],
      );
    }
    for (const page of ['0x2', '2e0', ' 2']) {
      const response = await t.app.inject({
        url: `/api/admin/tickets?page=${encodeURIComponent(page)}`,
        headers,
      });
      expectApiError(response, 400, ['page']);
    }
    expect((await t.app.inject({ url: '/api/admin/tickets?page=2', headers })).statusCode).toBe(200);
  });

  it('refuses the NUL character in any field on both databases (PostgreSQL cannot store it), naming the field', async () => {
    const { user, headers } = await signedInAdmin();
    const before = await t.ctx.db.selectFrom('sections').select('id').execute();
    const refused = [
      ['/api/auth/login', { email: `a\u0000${user.email}`, password: DEFAULT_PASSWORD }, 'email'],
      ['/api/auth/login', { email: user.email, password: `${DEFAULT_PASSWORD}\u0000` }, 'password'],
      ['/api/admin/sections', { name: 'Billing\u0000' }, 'name'],
      ['/api/admin/users', { email: 'new@example.com', name: '\u0000', password: 'long enough' }, 'name'],
      [
        '/panel/api/issue-open',
        { title: 'Help', description: 'a\u0000b', name: 'Ann', email: 'ann@example.com' },
        'description',
      ],
    ] as const;
    for (const [url, payload, field] of refused) {
      expectApiError(await t.app.inject({ method: 'POST', url, headers, payload }), 400, [field]);
    }
    expect(await t.ctx.db.selectFrom('sections').select('id').execute()).toEqual(before);
  });

  it('refuses a value nested past 32 levels in any field, naming the field (a walk of 10,000 levels overflowed the stack: 500)', async () => {
    const signedIn = await signedInAdmin();
    const headers = { ...signedIn.headers, 'content-type': 'application/json' };
    const before = await t.ctx.db.selectFrom('sections').select('id').execute();
    const deepArray = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    const deepObject = `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`;
    const refused = [
      ['/api/search/events', `{"type":"search","query":"x","found":1,"extra":${deepArray}}`],
      ['/api/search/events', `{"type":"search","query":"x","found":1,"extra":${deepObject}}`],
      [
        '/api/search/events',
        `{"type":"search","query":"x","found":1,"extra":${'['.repeat(33)}${']'.repeat(33)}}`,
      ],
    ];
    for (const [url, payload] of refused) {
      const error = expectApiError(await t.app.inject({ method: 'POST', url, headers, payload }), 400, [
        'extra',
      ]);
      expect(error.data.errors[0]?.message).toBe('is nested too deeply (more than 32 levels)');
    }
    // A call of the team refuses a field it does not know before looking inside it.
    for (const value of [deepArray, deepObject]) {
      const payload = `{"name":"Deep","extra":${value}}`;
      const error = expectApiError(
        await t.app.inject({ method: 'POST', url: '/api/admin/sections', headers, payload }),
        400,
        ['extra'],
      );
      expect(error.data.errors[0]?.message).toBe('is not a known field');
    }
    expect(await t.ctx.db.selectFrom('sections').select('id').execute()).toEqual(before);
    const shallow = `{"type":"search","query":"x","found":1,"extra":${'['.repeat(32)}${']'.repeat(32)}}`;
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/search/events', headers, payload: shallow }))
        .statusCode,
    ).toBeLessThan(300);
  });

  it('answers an address Fastify cannot decode in the error shape, and sends such a page to the not-found screen', async () => {
    for (const url of ['/api/knowledge/instruction/%zz', '/api/admin/articles/%E0%A4%A', '/files/%/a.txt']) {
      expect(expectApiError(await t.app.inject(url), 400, ['url']).code).toBe('invalid_url');
    }
    const long = expectApiError(await t.app.inject(`/api/knowledge/instruction/${'1'.repeat(200)}`), 414, [
      'url',
    ]);
    expect(long.code).toBe('url_too_long');
    const page = await t.app.inject('/admin/%zz');
    expect(page.statusCode).toBe(302);
    expect(page.headers.location).toBe('/knowledge/404');
  });

  it('sends nosniff on successful answers too', async () => {
    const response = await t.app.inject('/api/settings/branding');
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });

  describe('when the server itself fails', () => {
    let broken: TestApp;
    beforeAll(async () => {
      broken = await createTestApp(dialect);
      await sql`drop table settings`.execute(broken.ctx.db);
    });
    afterAll(async () => broken?.close());

    it('answers a plain 500 without stack traces or database details', async () => {
      const response = await broken.app.inject('/api/settings/branding');
      const error = expectApiError(response, 500, []);
      expect(error).toEqual({
        status: 500,
        code: 'internal_error',
        message: 'An error has occured on the server',
        data: { errors: [] },
      });
      expect(response.body).not.toMatch(/settings|no such table|relation|sql/i);
    });
  });
});

describe('registerErrorHandling', () => {
  it('answers JSON when a download stream fails after its type was set', async () => {
    const app = Fastify();
    registerErrorHandling(app);
    const missing = path.join(os.tmpdir(), `signpost-missing-${process.pid}`, 'secret.pdf');
    app.get('/download', async (_request, reply) =>
      reply.type('application/pdf').send(fs.createReadStream(missing)),
    );
    try {
      const response = await app.inject('/download');
      const error = expectApiError(response, 500, []);
      expect(error.code).toBe('internal_error');
      expect(response.body).not.toContain('secret.pdf');
    } finally {
      await app.close();
    }
  });
});
