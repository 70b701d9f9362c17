import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IssueOpenResult } from '../../shared/api/tickets.ts';
import { SESSION_COOKIE } from '../../shared/constants.ts';
import { ADMIN_FILES_COOKIE } from '../accounts/admin-session.ts';
import type { FileRow } from '../db/tables.ts';
import { signIn } from '../testing/admin-content.ts';
import { buildFile, buildUser, DEFAULT_PASSWORD } from '../testing/factories.ts';
import { BOUNDARY, multipartBody } from '../testing/hostile-values.ts';
import { createTestApp, testDialects, type TestApp } from '../testing/test-context.ts';
import { issueOpenBody, OPEN_REQUESTS_CONFIG } from '../testing/ticket-fixtures.ts';
import { VISITOR_COOKIE } from '../tickets/index.ts';
import { serializeCookie } from './cookies.ts';

/**
 * The Cookie header, read by one parser for every route: what each cookie-reading route makes of a header that is
 * not what a browser of ours sends. The rules are the ones the hand-written parsers had: the first of two cookies of
 * one name counts, a value counts as it came (escapes are not decoded, so an escaped spelling of a good value is not
 * it), other cookies' bad values change nothing, and a header of many or long cookies is read to its end.
 */

/** Cookie headers around a good value of `name`, each with what the route must make of it. */
function malformedAround(name: string, good: string): { label: string; header: string; counts: boolean }[] {
  const padding = Array.from({ length: 400 }, (_, i) => `pad${i}=${'z'.repeat(16)}`).join('; ');
  return [
    { label: 'the good value alone', header: `${name}=${good}`, counts: true },
    { label: 'a bad value first, of the same name', header: `${name}=junk; ${name}=${good}`, counts: false },
    { label: 'the good value first, a bad one after', header: `${name}=${good}; ${name}=junk`, counts: true },
    { label: 'a bad escape as the value', header: `${name}=%E0%A4%A`, counts: false },
    { label: 'the good value, every character escaped', header: `${name}=${escapeAll(good)}`, counts: false },
    {
      label: 'malformed escapes and separators around it',
      header: `%, %E0%A4%A;=,;; other=%ZZ; =x; ${name}=${good}; last=%`,
      counts: true,
    },
    {
      label: 'a huge header (400 cookies, 9 kB) before it',
      header: `${padding}; ${name}=${good}`,
      counts: true,
    },
    { label: 'an empty value', header: `${name}=`, counts: false },
    { label: 'the name without a value', header: `${name}`, counts: false },
  ];
}

const escapeAll = (value: string) =>
  [...value].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`).join('');

describe.each(testDialects())('cookies read and written on %s', (dialect) => {
  let t: TestApp;
  let customerToken: string;
  let adminToken: string;
  let freshUpload: FileRow;

  beforeAll(async () => {
    t = await createTestApp(dialect, { ...OPEN_REQUESTS_CONFIG, PUBLIC_URL: 'https://help.example.com' });
    const customer = await buildUser(t.ctx.db, { role: 'customer' });
    const admin = await buildUser(t.ctx.db, { role: 'admin' });
    customerToken = await signIn(t, customer.email);
    adminToken = await signIn(t, admin.email);
    // A content file on no page: the editor's alone, whom the files cookie makes known to an <img>.
    freshUpload = await buildFile(t.ctx, { name: 'fresh.png', content: 'png bytes' });
  });
  afterAll(async () => t?.close());

  it('reads the session cookie (GET /api/user/me) as before, whatever else the header carries', async () => {
    for (const { label, header, counts } of malformedAround(SESSION_COOKIE, customerToken)) {
      const response = await t.app.inject({ url: '/api/user/me', headers: { cookie: header } });
      expect(response.statusCode, label).toBe(counts ? 200 : 401);
    }
  });

  it("reads the admin's files cookie (GET /files/:id) as before, its value URI-decoded as it was written", async () => {
    for (const { label, header, counts } of malformedAround(ADMIN_FILES_COOKIE, adminToken)) {
      const response = await t.app.inject({
        url: `/files/${freshUpload.id}/fresh.png`,
        headers: { cookie: header },
      });
      // The one cookie that was always written escaped and read decoded: an escaped spelling is the token too.
      const expected = counts || label.includes('every character escaped');
      expect(response.statusCode, label).toBe(expected ? 200 : 404);
    }
  });

  it("reads the visitor's cookie (POST /api/file) as before: a cookie that does not count gets a new one", async () => {
    const upload = (cookie: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/file',
        payload: multipartBody([{ name: 'file[]', filename: 'a.txt', type: 'text/plain', content: 'hello' }]),
        headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, cookie },
      });
    const first = await upload('');
    expect(first.statusCode, first.body).toBe(200);
    const value = /^signpost_visitor=([\w-]{32});/.exec(String(first.headers['set-cookie']))?.[1] ?? '';
    for (const { label, header, counts } of malformedAround(VISITOR_COOKIE, value)) {
      const response = await upload(header);
      expect(response.statusCode, label).toBe(200);
      expect(response.headers['set-cookie'] === undefined, label).toBe(counts);
    }
  });

  it('reads the sender’s cookie of a request (GET /api/portal/issues/:id) as before', async () => {
    const sent = await t.app.inject({
      method: 'POST',
      url: '/panel/api/issue-open',
      payload: issueOpenBody({ email: 'someone@example.com' }),
    });
    expect(sent.statusCode, sent.body).toBe(201);
    const id = sent.json<IssueOpenResult>().data.id;
    const value = new RegExp(`^signpost_request_${id}=([\\w-]{43});`).exec(
      [sent.headers['set-cookie']].flat()[0] ?? '',
    )?.[1];
    expect(value).toBeDefined();
    for (const { label, header, counts } of malformedAround(`signpost_request_${id}`, value!)) {
      const response = await t.app.inject({ url: `/api/portal/issues/${id}`, headers: { cookie: header } });
      expect(response.statusCode, label).toBe(counts ? 200 : 404);
    }
  });

  it('writes every cookie with the attributes in one order, Secure on an https help centre', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: (await buildUser(t.ctx.db, { role: 'customer' })).email, password: DEFAULT_PASSWORD },
    });
    const written = [response.headers['set-cookie'] ?? []].flat();
    expect(written.length, response.body).toBeGreaterThan(0);
    for (const header of written)
      expect(header).toMatch(
        /^signpost_\w+=[\w.-]+; Path=\/[^;]*; HttpOnly; SameSite=(Lax|Strict); Max-Age=\d+; Secure$/,
      );
  });
});

describe('a cookie written', () => {
  const cookie = { name: 'signpost_x', value: 'abc', path: '/', maxAge: 60, sameSite: 'Lax' as const };

  it('is one line: name, Path, HttpOnly, SameSite, Max-Age, and Secure only when asked', () => {
    expect(serializeCookie(cookie, false)).toBe('signpost_x=abc; Path=/; HttpOnly; SameSite=Lax; Max-Age=60');
    expect(serializeCookie(cookie, true)).toBe(
      'signpost_x=abc; Path=/; HttpOnly; SameSite=Lax; Max-Age=60; Secure',
    );
  });

  it('refuses a name, value or path that would end the header or the attribute', () => {
    expect(() => serializeCookie({ ...cookie, name: 'a;b' }, false)).toThrow(/name/);
    expect(() => serializeCookie({ ...cookie, value: 'a\r\nSet-Cookie: x=1' }, false)).toThrow(/value/);
    expect(() => serializeCookie({ ...cookie, value: 'a;b' }, false)).toThrow(/value/);
    expect(() => serializeCookie({ ...cookie, path: '/; Domain=evil.example' }, false)).toThrow(/path/);
    expect(() => serializeCookie({ ...cookie, maxAge: Number.NaN }, false)).toThrow(/Max-Age/);
  });
});

describe('cookies in the server', () => {
  /**
   * A Cookie header read or a Set-Cookie written other than through http/cookies.ts: its headers named, or a cookie
   * parser of its own imported. Even the readers before Fastify (the answers kept in memory, the page language) and
   * the page renderer, which hands the visitor's cookies on to the calls it makes, go through it.
   */
  const HAND_READ_OR_WRITTEN =
    /'set-cookie'|headers\.cookie\b|headers\[\s*['"`]cookie['"`]\s*\]|from '(@fastify\/)?cookie'/i;

  it('are read and written through http/cookies.ts alone', () => {
    const server = path.resolve(import.meta.dirname, '..');
    const files = (fs.readdirSync(server, { recursive: true }) as string[]).filter(
      (file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && !file.startsWith(`testing${path.sep}`),
    );
    const handWritten = files.filter(
      (file) =>
        file !== path.join('http', 'cookies.ts') &&
        HAND_READ_OR_WRITTEN.test(fs.readFileSync(path.join(server, file), 'utf8')),
    );
    expect(handWritten).toEqual([]);
  });

  it('would notice a reader of its own', () => {
    for (const line of [
      "const raw = request.headers.cookie ?? '';",
      "const raw = request.headers['cookie'];",
      "import { parseCookie } from 'cookie';",
      "import { parse } from '@fastify/cookie';",
      "reply.header('Set-Cookie', 'a=b');",
    ])
      expect(HAND_READ_OR_WRITTEN.test(line), line).toBe(true);
  });
});
