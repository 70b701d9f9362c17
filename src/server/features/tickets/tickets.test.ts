import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CaptchaChallenge } from '../../../shared/api/tickets.ts';
import { expectApiError } from '../../testing/api-expect.ts';
import { buildUser, DEFAULT_PASSWORD } from '../../testing/factories.ts';
import { createTestApp, testDialects, type TestApp } from '../../testing/test-context.ts';
import { malformedMultipart } from '../../testing/malformed-multipart.ts';
import { partialUploads, storedKeys } from '../../testing/stored-files.ts';
import { issueOpenBody, OPEN_REQUESTS_CONFIG } from '../../testing/ticket-fixtures.ts';
import { removeUnusedBytes, UNUSED_BYTES_GRACE_MS } from '../../files/unused-bytes.ts';
import { updateBranding } from '../../settings/branding.ts';

const BOUNDARY = '----signpost-test-boundary';

/** A multipart/form-data body as a browser sends it. */
export function multipart(files: { name: string; content: Buffer | string; field?: string }[]) {
  const parts: Buffer[] = [];
  for (const file of files) {
    parts.push(
      Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${file.field ?? 'file[]'}"; filename="${file.name}"\r\n` +
          'Content-Type: application/octet-stream\r\n\r\n',
      ),
      Buffer.isBuffer(file.content) ? file.content : Buffer.from(file.content),
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return {
    payload: Buffer.concat(parts),
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
  };
}

const cookieOf = (setCookie: string | string[] | undefined) => String(setCookie ?? '').split(';')[0] ?? '';

/** Solves a proof-of-work challenge the way the browser widget does. */
export function solve(challenge: CaptchaChallenge): string {
  for (let number = 0; number <= challenge.maxnumber; number++) {
    if (
      crypto.createHash('sha256').update(`${challenge.salt}${number}`).digest('hex') === challenge.challenge
    ) {
      return Buffer.from(JSON.stringify({ ...challenge, number })).toString('base64');
    }
  }
  throw new Error('unsolvable challenge');
}

const storedBlobs = (t: TestApp) => storedKeys(t.ctx);
/** The sweep as it runs a day after now, when bytes written now and held by nothing are due. */
const sweepUnusedBytes = (t: TestApp) => removeUnusedBytes(t.ctx, Date.now() + UNUSED_BYTES_GRACE_MS + 1000);

const count = async (t: TestApp, table: 'tickets' | 'files' | 'outbox' | 'ticket_files') =>
  (await t.ctx.db.selectFrom(table).selectAll().execute()).length;

describe.each(testDialects())('support requests on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, OPEN_REQUESTS_CONFIG);
  });
  afterAll(async () => t?.close());

  const upload = (
    files: Parameters<typeof multipart>[0],
    cookie = '',
    headers: Record<string, string> = {},
  ) => {
    const body = multipart(files);
    return t.app.inject({
      method: 'POST',
      url: '/api/file',
      payload: body.payload,
      headers: { ...body.headers, cookie, ...headers },
    });
  };
  const open = (body: unknown, cookie = '', headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url: '/panel/api/issue-open',
      payload: body as object,
      headers: { cookie, ...headers },
    });

  it('stores uploads under generated names and answers their records, with an HTTP-only cookie', async () => {
    const response = await upload([
      { name: '../../etc/passwd', content: 'not really' },
      { name: 'screen shot ü.png', content: Buffer.alloc(3000, 7) },
    ]);
    expect(response.statusCode).toBe(200);
    const records = response.json();
    expect(records).toEqual([
      { id: expect.any(Number), original_name: 'passwd', file_size: 10 },
      { id: expect.any(Number), original_name: 'screen shot ü.png', file_size: 3000 },
    ]);
    expect(String(response.headers['set-cookie'])).toMatch(
      /^signpost_visitor=[\w-]{32}; Path=\/; HttpOnly; SameSite=Lax/,
    );
    expect((await storedBlobs(t)).every((name) => /^[0-9a-f]{64}$/.test(name))).toBe(true);
    // A visitor's upload has no public link.
    expect((await t.app.inject(`/files/${records[1].id}/x.png`)).statusCode).toBe(404);
  });

  it('refuses a file over 25 MB with 413 and keeps nothing of it', async () => {
    const files = await count(t, 'files');
    const blobs = (await storedBlobs(t)).length;
    const response = await upload([
      { name: 'small.txt', content: 'fine' },
      { name: 'huge.bin', content: Buffer.alloc(25 * 1024 * 1024 + 1, 1) },
    ]);
    expectApiError(response, 413, ['file[]']);
    expect(await count(t, 'files')).toBe(files);
    expect(await partialUploads(t.ctx)).toBe(0);
    // The first file's bytes, held by no row, go with the sweep of unused bytes.
    await sweepUnusedBytes(t);
    expect((await storedBlobs(t)).length).toBe(blobs);
  });

  it('refuses an eleventh file with 413 and keeps nothing', async () => {
    const files = await count(t, 'files');
    const eleven = Array.from({ length: 11 }, (_, i) => ({
      name: `f${i}.txt`,
      content: `unique content ${i} ${Math.random()}`,
    }));
    const blobs = (await storedBlobs(t)).length;
    const response = await upload(eleven);
    expect(response.statusCode).toBe(413);
    expect(response.json().code).toBe('too_many_files');
    expect(await count(t, 'files')).toBe(files);
    await sweepUnusedBytes(t);
    expect((await storedBlobs(t)).length).toBe(blobs);
  });

  it('refuses an upload that is not multipart, or has no file', async () => {
    const json = await t.app.inject({ method: 'POST', url: '/api/file', payload: { file: 'x' } });
    expectApiError(json, 415, ['file[]']);
    const empty = await t.app.inject({ method: 'POST', url: '/api/file', ...multipart([]) });
    expectApiError(empty, 400, ['file[]']);
  });

  it('answers 400 naming file[] to a malformed multipart body, keeping nothing', async () => {
    const files = await count(t, 'files');
    for (const [variant, type, body] of malformedMultipart('file[]')) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/file',
        payload: body,
        headers: { 'content-type': type },
      });
      expect(response.statusCode, variant).toBe(400);
      expectApiError(response, 400, ['file[]']);
    }
    expect(await count(t, 'files')).toBe(files);
    expect(await partialUploads(t.ctx)).toBe(0);
  });

  it('opens a ticket with the visitor’s own files, stored with its deliveries in one go', async () => {
    const uploaded = await upload([
      { name: 'a.txt', content: 'aaa' },
      { name: 'b.txt', content: 'bbb' },
    ]);
    const cookie = cookieOf(uploaded.headers['set-cookie']);
    const ids = uploaded.json().map((f: { id: number }) => f.id);
    const response = await open(issueOpenBody({ files: ids, name: 'Ann Lee\u202e' }), cookie);
    expect(response.statusCode, response.body).toBe(201);
    const { id, files } = response.json().data;
    expect(files).toEqual(ids);
    const ticket = await t.ctx.db
      .selectFrom('tickets')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(ticket).toMatchObject({ name: 'Ann Lee', email: 'ann@example.com', channel: 'web', lang: 'en' });
    const attached = await t.ctx.db
      .selectFrom('ticket_files')
      .select('file_id')
      .where('ticket_id', '=', id)
      .execute();
    expect(attached.map((a) => a.file_id)).toEqual(ids);
    const outbox = await t.ctx.db.selectFrom('outbox').selectAll().where('ticket_id', '=', id).execute();
    expect(outbox.map((o) => [o.target, o.status])).toEqual([['webhook', 'pending']]);

    // The same files cannot go with a second request.
    const again = await open(issueOpenBody({ files: ids }), cookie);
    expectApiError(again, 422, ['files', 'files']);
  });

  it('accepts only files of the same visitor or signed-in user', async () => {
    const mine = await upload([{ name: 'mine.txt', content: 'mine' }]);
    const theirs = await upload([{ name: 'theirs.txt', content: 'theirs' }]);
    const cookie = cookieOf(mine.headers['set-cookie']);
    const tickets = await count(t, 'tickets');
    const response = await open(
      issueOpenBody({ files: [mine.json()[0].id, theirs.json()[0].id, 99999999] }),
      cookie,
    );
    expectApiError(response, 422, ['files', 'files']);
    expect(response.json().data.errors[0].message).toContain(String(theirs.json()[0].id));
    expect(await count(t, 'tickets')).toBe(tickets);

    await buildUser(t.ctx.db, { email: 'user@example.com', name: 'User' });
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'user@example.com', password: DEFAULT_PASSWORD },
    });
    const token = login.json().token;
    const userUpload = await upload([{ name: 'u.txt', content: 'from the account' }], '', {
      'x-auth-token': token,
    });
    expect(userUpload.headers['set-cookie']).toBeUndefined();
    // From another browser, the same account may attach it.
    const sent = await open(issueOpenBody({ files: [userUpload.json()[0].id] }), '', {
      'x-auth-token': token,
    });
    expect(sent.statusCode).toBe(201);
    const ticket = await t.ctx.db
      .selectFrom('tickets')
      .select('user_id')
      .where('id', '=', sent.json().data.id)
      .executeTakeFirstOrThrow();
    expect(ticket.user_id).not.toBeNull();
  });

  it('flags every empty or malformed field at once, in the interface language, storing nothing', async () => {
    const tickets = await count(t, 'tickets');
    const empty = await open(issueOpenBody({ name: '  ', email: '', description: '\u200b', title: '' }));
    expectApiError(empty, 422, ['title', 'name', 'email', 'description']);
    const badEmail = await open(issueOpenBody({ email: 'ann@' }));
    expectApiError(badEmail, 422, ['email']);
    expect(badEmail.json().data.errors[0].message).toBe('Enter a valid email address');
    // One address a field: a list would reach every address in it.
    for (const email of ['x1,bob@example.com', 'Ann <ann@example.com>', 'ann@example.com; bob@example.com'])
      expectApiError(await open(issueOpenBody({ email })), 422, ['email']);
    await updateBranding(t.ctx.db, { lang: 'ru' });
    const russian = await open(issueOpenBody({ name: '' }));
    expect(russian.json().data.errors[0]).toEqual({ field: 'name', message: 'Это поле обязательно' });
    await updateBranding(t.ctx.db, { lang: 'en' });
    expect(await count(t, 'tickets')).toBe(tickets);
  });

  /** A body as written, under the content type given. */
  const sendRaw = (payload: string, contentType: string) =>
    t.app.inject({
      method: 'POST',
      url: '/panel/api/issue-open',
      payload,
      headers: { 'content-type': contentType },
    });

  it('answers clear 4xx errors for broken, huge and mistyped bodies', async () => {
    const tickets = await count(t, 'tickets');
    const malformed = await sendRaw('{"name":', 'application/json');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().code).toBe('invalid_json');
    const emptyBody = await sendRaw('', 'application/json');
    expect(emptyBody.statusCode).toBe(400);
    const huge = await open(issueOpenBody({ description: 'x'.repeat(3 * 1024 * 1024) }));
    expect(huge.statusCode).toBe(413);
    expect(huge.json().code).toBe('body_too_large');
    const long = await open(issueOpenBody({ description: 'x'.repeat(20_001), name: 'n'.repeat(201) }));
    expectApiError(long, 422, ['description', 'name']);
    expect(long.json().data.errors[0].message).toMatch(/at most \d+ characters/);
    const xml = await sendRaw('<name/>', 'application/xml');
    expect(xml.statusCode).toBe(415);
    expect(xml.json().code).toBe('unsupported_media_type');
    const text = await sendRaw('name=x', 'text/plain');
    expectApiError(text, 400, ['body']);
    const missing = await open({});
    expectApiError(missing, 400, ['title', 'description', 'name', 'email']);
    const tooMany = await open(issueOpenBody({ files: Array.from({ length: 11 }, (_, i) => i + 1) }));
    expect(tooMany.statusCode).toBe(422);
    expect(tooMany.json().data.errors[0]).toEqual({ field: 'files', message: 'Attach at most 10 files' });
    const wrongTypes = await open(issueOpenBody({ name: { first: 'Ann' }, files: ['a'] }));
    expectApiError(wrongTypes, 400, ['name', 'files.0']);
    expect(await count(t, 'tickets')).toBe(tickets);
  });
});

describe.each(testDialects())('captcha and abuse limits on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, {
      CAPTCHA_PROVIDER: 'altcha',
      REQUESTS_PER_HOUR: '6',
      UPLOADS_PER_HOUR: '2',
    });
  });
  afterAll(async () => t?.close());

  const challenge = async () => (await t.app.inject('/api/captcha/challenge')).json() as CaptchaChallenge;
  const open = (body: unknown) =>
    t.app.inject({ method: 'POST', url: '/panel/api/issue-open', payload: body as object });

  it('tells the client which captcha to show', async () => {
    const environments = (await t.app.inject('/panel/api/v2/system/environments')).json();
    expect(environments).toMatchObject({
      disable_google_captcha: false,
      captcha: { provider: 'altcha', site_key: null, challenge_url: '/api/captcha/challenge' },
    });
  });

  it('requires a solved challenge, once: missing, forged and reused solutions are refused', async () => {
    const missing = await open(issueOpenBody());
    expectApiError(missing, 422, ['g_recaptcha_response']);

    const first = await challenge();
    const forged = solve({ ...first, signature: 'f'.repeat(64) });
    expectApiError(await open(issueOpenBody({ g_recaptcha_response: forged })), 422, [
      'g_recaptcha_response',
    ]);
    expectApiError(await open(issueOpenBody({ g_recaptcha_response: 'bm90IGpzb24=' })), 422, [
      'g_recaptcha_response',
    ]);

    const solution = solve(first);
    expect((await open(issueOpenBody({ g_recaptcha_response: solution }))).statusCode).toBe(201);
    const reused = await open(issueOpenBody({ g_recaptcha_response: solution }));
    expectApiError(reused, 422, ['g_recaptcha_response']);
    expect(reused.json().data.errors[0].message).toBe('This check was already used; try again');
  });

  it('trusts X-Forwarded-For only when told to', async () => {
    const spoofed = multipart([{ name: 'a.txt', content: 'a' }]);
    const statusesFor = async (app: TestApp, addresses: string[]) => {
      const statuses = [];
      for (const address of addresses) {
        const response = await app.app.inject({
          method: 'POST',
          url: '/api/file',
          ...spoofed,
          headers: { ...spoofed.headers, 'x-forwarded-for': address },
        });
        statuses.push(response.statusCode);
      }
      return statuses;
    };
    for (const [trust, expected] of [
      // Untrusted, three forwarded addresses are still one client: the limit of 1 applies.
      ['false', [200, 429, 429]],
      ['true', [200, 200, 429]],
    ] as const) {
      const app = await createTestApp(dialect, {
        CAPTCHA_PROVIDER: 'none',
        UPLOADS_PER_HOUR: '1',
        TRUST_PROXY: trust,
      });
      try {
        expect(await statusesFor(app, ['10.0.0.1', '10.0.0.2', '10.0.0.1']), trust).toEqual(expected);
      } finally {
        await app.close();
      }
    }
  });

  it('limits requests per client address per hour with 429 and Retry-After', async () => {
    let last = await open(issueOpenBody());
    for (let i = 0; i < 6 && last.statusCode !== 429; i++) last = await open(issueOpenBody());
    expectApiError(last, 429);
    expect(Number(last.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(last.headers['retry-after'])).toBeLessThanOrEqual(3600);

    const body = multipart([{ name: 'a.txt', content: 'a' }]);
    const uploads = [];
    for (let i = 0; i < 3; i++)
      uploads.push(await t.app.inject({ method: 'POST', url: '/api/file', ...body }));
    expect(uploads.map((u) => u.statusCode)).toEqual([200, 200, 429]);
  });
});

describe.each(testDialects())('uploads nobody sent on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { CAPTCHA_PROVIDER: 'none' });
  });
  afterAll(async () => t?.close());

  it('are deleted after 24 hours, bytes included, while sent ones stay', async () => {
    const { deleteStaleUploads, UPLOAD_LIFETIME_MS } = await import('./stale-uploads.ts');
    const body = multipart([
      { name: 'kept.txt', content: 'kept bytes' },
      { name: 'dropped.txt', content: 'dropped bytes' },
    ]);
    const uploaded = await t.app.inject({ method: 'POST', url: '/api/file', ...body });
    const [kept, dropped] = uploaded.json();
    const cookie = cookieOf(uploaded.headers['set-cookie']);
    const sent = await t.app.inject({
      method: 'POST',
      url: '/panel/api/issue-open',
      payload: issueOpenBody({ files: [kept.id] }),
      headers: { cookie },
    });
    expect(sent.statusCode).toBe(201);
    expect(await deleteStaleUploads(t.ctx, Date.now())).toBe(0);
    expect(await sweepUnusedBytes(t)).toBe(0);
    const before = (await storedBlobs(t)).length;
    expect(await deleteStaleUploads(t.ctx, Date.now() + UPLOAD_LIFETIME_MS + 1000)).toBe(1);
    const remaining = (await t.ctx.db.selectFrom('files').select('id').execute()).map((f) => f.id);
    expect(remaining).toContain(kept.id);
    expect(remaining).not.toContain(dropped.id);
    // Its bytes go with the sweep, once nobody has written them for a day.
    expect(await removeUnusedBytes(t.ctx, Date.now())).toBe(0);
    expect(await sweepUnusedBytes(t)).toBe(1);
    expect((await storedBlobs(t)).length).toBe(before - 1);
  });
});

describe.each(testDialects())('reCAPTCHA on %s', (dialect) => {
  let t: TestApp;
  let verifier: http.Server;
  const asked: string[] = [];
  beforeAll(async () => {
    // Google's siteverify, as a local stand-in: it knows one good token and checks the secret.
    verifier = http.createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        const form = new URLSearchParams(body);
        asked.push(form.get('response') ?? '');
        const success = form.get('secret') === 'server-secret' && form.get('response') === 'good-token';
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ success }));
      });
    });
    await new Promise<void>((resolve) => verifier.listen(0, '127.0.0.1', resolve));
    const { port } = verifier.address() as AddressInfo;
    t = await createTestApp(dialect, {
      CAPTCHA_PROVIDER: 'recaptcha',
      RECAPTCHA_SITE_KEY: 'site-key',
      RECAPTCHA_SECRET: 'server-secret',
      RECAPTCHA_VERIFY_URL: `http://127.0.0.1:${port}/siteverify`,
    });
  });
  afterAll(async () => {
    await t?.close();
    verifier?.close();
  });

  const open = (token: string) =>
    t.app.inject({
      method: 'POST',
      url: '/panel/api/issue-open',
      payload: issueOpenBody({ g_recaptcha_response: token }),
    });

  it('tells the client its site key, checks tokens with the verifier, and refuses a token used twice', async () => {
    const environments = (await t.app.inject('/panel/api/v2/system/environments')).json();
    expect(environments.captcha).toEqual({
      provider: 'recaptcha',
      site_key: 'site-key',
      challenge_url: null,
    });
    expect((await t.app.inject('/api/captcha/challenge')).statusCode).toBe(404);
    expectApiError(await open('bad-token'), 422, ['g_recaptcha_response']);
    expect((await open('good-token')).statusCode).toBe(201);
    expectApiError(await open('good-token'), 422, ['g_recaptcha_response']);
    expect(asked).toEqual(['bad-token', 'good-token', 'good-token']);
  });
});
