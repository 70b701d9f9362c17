import { execFile, spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http2 from 'node:http2';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPLOAD_FILE_MAX_BYTES, ISSUE_FILES_MAX } from '../shared/constants.ts';
import { apiPaths } from '../shared/paths.ts';
import { sendHttp, withinOneHour } from './testing/http-client.ts';
import { signpost, startServe } from './testing/run-cli.ts';
import { createTestEnvironment, testDialects, type TestEnvironment } from './testing/test-context.ts';
import { freePort } from './testing/free-port.ts';
import { BOUNDARY, multipartChunks } from './testing/hostile-values.ts';

/*
 * docs/deploy as an operator uses it: the committed nginx site file in front of a real `signpost serve` started by
 * the command of the committed systemd unit with the committed environment file, the backup wrapper, and every unit
 * through `systemd-analyze verify`.
 *
 * The site file runs as committed, but for what a test cannot have (privileged ports, a real certificate, the
 * operator's host name), rewritten by renderSite():
 *   - `listen 443` / `listen [::]:443`  ->  127.0.0.1:HTTPS / [::1]:HTTPS, and 80 likewise to HTTP (free high ports);
 *   - the upstream's `server 127.0.0.1:3000;`  ->  the test server's port;
 *   - `help.example.com`  ->  `localhost`, and the redirect's `https://localhost`  ->  `https://localhost:HTTPS`;
 *   - the certificate paths under /etc/letsencrypt/live/help.example.com/  ->  a self-signed one made by openssl;
 *   - the certbot webroot /var/www/html  ->  a temporary folder.
 * The metrics test runs a second copy with the file's commented `# allow` line in force, as an operator scraping
 * through nginx writes it.
 * Around it, the test's own nginx.conf in place of Debian's: one worker, and its pid, logs and temporary folders in
 * a temporary prefix, so nginx runs without touching /var or /run.
 *
 * Clients connect from 127.0.0.2 and other addresses of 127.0.0.0/8 (all of it is the loopback), nginx from
 * 127.0.0.1: the address the server takes for the client's is then told apart from nginx's own.
 */

const ROOT = path.resolve(import.meta.dirname, '../..');
const DEPLOY = path.join(ROOT, 'docs/deploy');
const NGINX = '/usr/sbin/nginx';
const SYSTEMD_ANALYZE = '/usr/bin/systemd-analyze';
const MIB = 1024 * 1024;
/** signpost.env's METRICS_TOKEN, which the site file asks for to scrape through nginx. */
const METRICS_TOKEN = crypto.randomBytes(16).toString('hex');
/** The site's client_max_body_size outside the upload addresses. */
const BODY_MAX_BYTES = 3 * MIB;
/** The signature of nginx's own error pages, which the server's answers never carry. */
const NGINX_PAGE = /<hr><center>nginx(\/[\d.]+)?<\/center>/;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string } = {}) {
  return new Promise<Run>((resolve) => {
    execFile(command, args, { ...options, maxBuffer: 16 * MIB }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error.code as number | undefined) ?? 1) : 0, stdout, stderr }),
    );
  });
}

const readDeploy = (file: string) => fs.readFileSync(path.join(DEPLOY, file), 'utf8');

/** Replaces `from` in `text`, which must hold it: a placeholder that went away would leave the test checking nothing. */
function replaceAll(text: string, from: string | RegExp, to: string): string {
  expect(text, String(from)).toMatch(from);
  return typeof from === 'string' ? text.replaceAll(from, to) : text.replace(from, to);
}

/** The NAME=value lines of an environment file, as systemd's EnvironmentFile= reads this simple form. */
function environmentFile(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const match = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(line.trim());
    if (match) env[match[1]!] = match[2]!;
  }
  return env;
}

/** The unit's ExecStart= as its program and arguments, /opt/signpost being this checkout. */
function execStart(unit: string): string[] {
  const line = /^ExecStart=(.+)$/m.exec(unit)?.[1];
  expect(line).toBeDefined();
  return line!.split(/\s+/).map((word) => word.replaceAll('/opt/signpost', ROOT));
}

interface Site {
  prefix: string;
  ca: string;
  https: number;
  http: number;
  /** Where certbot's webroot is: a file put under .well-known/acme-challenge is served on the http port. */
  webroot: string;
  cleanup(): void;
}

/** A temporary prefix with a self-signed certificate for localhost and 127.0.0.1, and two free ports. */
async function prepareSite(): Promise<Site> {
  const prefix = fs.mkdtempSync(path.join(os.tmpdir(), 'signpost-nginx-'));
  const made = await run('openssl', [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-days',
    '2',
    '-subj',
    '/CN=localhost',
    '-addext',
    'subjectAltName=DNS:localhost,IP:127.0.0.1',
    '-keyout',
    path.join(prefix, 'key.pem'),
    '-out',
    path.join(prefix, 'cert.pem'),
  ]);
  expect(made.code, made.stderr).toBe(0);
  const webroot = path.join(prefix, 'webroot');
  fs.mkdirSync(path.join(webroot, '.well-known/acme-challenge'), { recursive: true });
  return {
    prefix,
    ca: fs.readFileSync(path.join(prefix, 'cert.pem'), 'utf8'),
    https: await freePort(),
    http: await freePort(),
    webroot,
    cleanup: () => fs.rmSync(prefix, { recursive: true, force: true }),
  };
}

/** The committed site file with the rewrites listed at the top of this file, then `edit`'s. */
function renderSite(site: Site, upstreamPort: number, edit: (text: string) => string): string {
  let text = edit(readDeploy('nginx/signpost.conf'));
  text = replaceAll(text, /^(\s*)listen 443 /m, `$1listen 127.0.0.1:${site.https} `);
  text = replaceAll(text, /^(\s*)listen \[::\]:443 /m, `$1listen [::1]:${site.https} `);
  text = replaceAll(text, /^(\s*)listen 80;/m, `$1listen 127.0.0.1:${site.http};`);
  text = replaceAll(text, /^(\s*)listen \[::\]:80;/m, `$1listen [::1]:${site.http};`);
  text = replaceAll(text, 'server 127.0.0.1:3000;', `server 127.0.0.1:${upstreamPort};`);
  text = replaceAll(
    text,
    '/etc/letsencrypt/live/help.example.com/fullchain.pem',
    path.join(site.prefix, 'cert.pem'),
  );
  text = replaceAll(
    text,
    '/etc/letsencrypt/live/help.example.com/privkey.pem',
    path.join(site.prefix, 'key.pem'),
  );
  text = replaceAll(text, 'root /var/www/html;', `root ${site.webroot};`);
  text = replaceAll(text, 'help.example.com', 'localhost');
  text = replaceAll(
    text,
    'return 301 https://localhost$request_uri;',
    `return 301 https://localhost:${site.https}$request_uri;`,
  );
  return text;
}

/** The test's main configuration around the site file: everything nginx writes stays in the prefix. */
function mainConfig(prefix: string): string {
  // Started by root, nginx would run its worker as `nobody`, which may not enter the private temporary folder.
  const user = process.getuid?.() === 0 ? `user ${os.userInfo().username};` : '';
  return `${user}
worker_processes 1;
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log warn;
events { worker_connections 256; }
http {
  access_log ${prefix}/access.log;
  client_body_temp_path ${prefix}/client-body;
  proxy_temp_path ${prefix}/proxy;
  fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi;
  scgi_temp_path ${prefix}/scgi;
  include ${prefix}/signpost.conf;
}
`;
}

interface Nginx {
  process: ChildProcess;
  stop(): Promise<void>;
}

/** Checks the configuration with `nginx -t`, then runs nginx in the foreground until stop(). */
async function startNginx(
  site: Site,
  upstreamPort: number,
  edit: (text: string) => string = (text) => text,
): Promise<Nginx> {
  fs.writeFileSync(path.join(site.prefix, 'signpost.conf'), renderSite(site, upstreamPort, edit));
  const config = path.join(site.prefix, 'nginx.conf');
  fs.writeFileSync(config, mainConfig(site.prefix));
  const args = ['-p', site.prefix, '-c', config, '-e', path.join(site.prefix, 'error.log')];
  const checked = await run(NGINX, [...args, '-t']);
  expect(checked.code, checked.stderr).toBe(0);
  const child = spawn(NGINX, [...args, '-g', 'daemon off;'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const nginx = {
    process: child,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
  // Listening once its health answer comes back through it.
  for (let attempt = 0; ; attempt++) {
    const answer = await sendHttp(site.http, { path: '/healthz', headers: { host: 'localhost' } }).catch(
      () => null,
    );
    if (answer) break;
    if (child.exitCode !== null || attempt > 200) {
      await nginx.stop();
      throw new Error(`nginx did not start:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return nginx;
}

interface Answer {
  status: number;
  headers: http2.IncomingHttpHeaders;
  body: Buffer;
}

/** An HTTP/2 connection to nginx as a browser makes it, from `localAddress`, trusting the test's certificate. */
function connectH2(site: Site, localAddress: string): Promise<http2.ClientHttp2Session> {
  return new Promise((resolve, reject) => {
    const session = http2.connect(`https://localhost:${site.https}`, {
      createConnection: () =>
        tls.connect({
          socket: net.connect({ host: '127.0.0.1', port: site.https, localAddress }),
          servername: 'localhost',
          ca: site.ca,
          ALPNProtocols: ['h2'],
        }),
    });
    session.once('connect', () => resolve(session));
    session.once('error', reject);
  });
}

/** One request on the session; the body, when given, is written part by part (no copy of a large body is made). */
function request(
  session: http2.ClientHttp2Session,
  headers: http2.OutgoingHttpHeaders,
  body: Buffer[] = [],
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const stream = session.request(headers, { endStream: body.length === 0 });
    const chunks: Buffer[] = [];
    let answered: http2.IncomingHttpHeaders = {};
    stream.on('response', (received) => (answered = received));
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () =>
      resolve({ status: Number(answered[':status']), headers: answered, body: Buffer.concat(chunks) }),
    );
    stream.on('error', reject);
    void (async () => {
      for (const part of body) {
        if (!stream.write(part)) await new Promise((resume) => stream.once('drain', resume));
      }
      if (body.length > 0) stream.end();
    })();
  });
}

const get = (session: http2.ClientHttp2Session, target: string, headers: http2.OutgoingHttpHeaders = {}) =>
  request(session, { ':path': target, ...headers });

/** A multipart upload of `files` in file[] parts, as the request form sends it, in pieces (see multipartChunks). */
const uploadBody = (files: { name: string; bytes: Buffer }[]): Buffer[] =>
  multipartChunks(
    files.map((file) => ({
      name: 'file[]',
      filename: file.name,
      type: 'application/octet-stream',
      content: file.bytes,
    })),
  );

function upload(session: http2.ClientHttp2Session, files: { name: string; bytes: Buffer }[], extra = {}) {
  const body = uploadBody(files);
  return request(
    session,
    {
      ':method': 'POST',
      ':path': apiPaths.upload,
      'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
      'content-length': body.reduce((sum, part) => sum + part.length, 0),
      ...extra,
    },
    body,
  );
}

const json = (answer: Answer) => JSON.parse(answer.body.toString('utf8')) as unknown;

interface LogLine {
  reqId?: string;
  msg?: string;
  req?: { url?: string; remoteAddress?: string };
}

/** The server's log lines that say a request came in. */
const incoming = (log: string): LogLine[] =>
  log
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine)
    .filter((entry) => entry.msg === 'incoming request');

describe.each(testDialects())('the nginx site file in front of signpost serve on %s', (dialect) => {
  let site: Site;
  let environment: TestEnvironment;
  let server: Awaited<ReturnType<typeof startServe>>;
  let nginx: Nginx;
  let origin: string;
  let session: http2.ClientHttp2Session;

  beforeAll(async () => {
    site = await prepareSite();
    origin = `https://localhost:${site.https}`;
    // Four upload calls an hour per address, a count the upload test reaches.
    environment = await createTestEnvironment(dialect, { UPLOADS_PER_HOUR: '4' });
    // The server as signpost.service starts it: its command, with signpost.env's settings (this site's address in
    // PUBLIC_URL), with the data folder and database the test made.
    const [node, bin, command] = execStart(readDeploy('systemd/signpost.service'));
    expect(command).toBe('serve');
    server = await startServe(
      {
        ...environmentFile(readDeploy('systemd/signpost.env')),
        ...environment.env,
        PUBLIC_URL: origin,
        METRICS_TOKEN,
      },
      { node: node!, bin: bin!, cwd: ROOT },
    );
    nginx = await startNginx(site, Number(new URL(server.url).port));
    session = await connectH2(site, '127.0.0.2');
    // Ready once the search index is built: the suggestions below need it.
    for (let waited = 0; (await get(session, '/readyz')).status !== 200; waited += 100) {
      if (waited > 30_000) throw new Error(`the server did not get ready:\n${server.output()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }, 60_000);

  afterAll(async () => {
    session?.close();
    await nginx?.stop();
    await server?.stop();
    await environment?.cleanup();
    site?.cleanup();
  });

  it('speaks HTTP/2 over TLS, chosen by ALPN from what a browser offers', async () => {
    const protocol = await new Promise<string | false>((resolve, reject) => {
      const socket = tls.connect(
        {
          host: '127.0.0.1',
          port: site.https,
          servername: 'localhost',
          ca: site.ca,
          ALPNProtocols: ['h2', 'http/1.1'],
        },
        () => {
          resolve(socket.alpnProtocol ?? false);
          socket.end();
        },
      );
      socket.once('error', reject);
    });
    expect(protocol).toBe('h2');
  });

  it('serves the help centre with one HSTS header and canonical links under the https PUBLIC_URL', async () => {
    for (const target of ['/knowledge', '/knowledge/']) {
      const page = await get(session, target);
      expect(page.status, target).toBe(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      // Once: the server's own header is hidden, nginx's is sent.
      expect(page.headers['strict-transport-security']).toBe('max-age=31536000');
      const html = page.body.toString('utf8');
      expect(html).toContain('Getting started');
      expect(/<link rel="canonical" href="([^"]+)"/.exec(html)?.[1]).toBe(`${origin}/knowledge/`);
    }
    const sitemap = (await get(session, '/sitemap.xml')).body.toString('utf8');
    const locations = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]);
    expect(locations.length).toBeGreaterThan(10);
    for (const location of locations)
      expect(location!.startsWith(`${origin}/knowledge/`), location).toBe(true);
    // nginx's own answers carry it too.
    expect((await get(session, '/metrics')).headers['strict-transport-security']).toBe('max-age=31536000');
  });

  it('redirects to addresses under the https PUBLIC_URL', async () => {
    const home = await get(session, '/');
    expect(home.status).toBe(302);
    expect(new URL(String(home.headers.location), `${origin}/`).href).toBe(`${origin}/knowledge/`);
    const missing = await get(session, '/no-such-page');
    expect(missing.status).toBe(302);
    expect(new URL(String(missing.headers.location), `${origin}/`).href).toBe(`${origin}/knowledge/404`);
  });

  it('sends http to the same address over https, and answers certificate challenges over http', async () => {
    const plain = await sendHttp(site.http, {
      path: '/knowledge/search?query=boost',
      headers: { host: 'elsewhere.example' },
    });
    expect(plain.status).toBe(301);
    expect(plain.headers.location).toBe(`${origin}/knowledge/search?query=boost`);
    const token = crypto.randomBytes(16).toString('hex');
    fs.writeFileSync(path.join(site.webroot, '.well-known/acme-challenge', token), `${token}.key`);
    const challenge = await sendHttp(site.http, {
      path: `/.well-known/acme-challenge/${token}`,
      headers: { host: 'localhost' },
    });
    expect(challenge.status).toBe(200);
    expect(challenge.body).toBe(`${token}.key`);
  });

  it('refuses /metrics however it is written; with an allow line and METRICS_TOKEN, the allowed host scrapes', async () => {
    const bearer = { authorization: `Bearer ${METRICS_TOKEN}` };
    const direct = await fetch(`${server.url}/metrics`, { headers: bearer });
    expect(direct.status).toBe(200);
    expect(await direct.text()).toContain('signpost_http_requests_total');
    for (const target of [
      '/metrics',
      '/metrics?format=text',
      '//metrics',
      '/%6Detrics',
      '/./metrics',
      '/x/../metrics',
    ]) {
      // nginx's own refusal, the token notwithstanding.
      const answer = await get(session, target, bearer);
      expect(answer.status, target).toBe(403);
      expect(answer.body.toString('utf8'), target).toMatch(NGINX_PAGE);
    }
    for (const target of ['/metrics/', '/METRICS', '/metrics%2F']) {
      const answer = await get(session, target, bearer);
      expect(answer.body.toString('utf8'), target).not.toContain('signpost_http_requests_total');
    }

    // The same file with its allow line in force for one monitoring host.
    const scraping = await prepareSite();
    const monitor = '127.0.0.20';
    const relay = await startNginx(scraping, Number(new URL(server.url).port), (text) =>
      replaceAll(text, /# (allow) 192\.0\.2\.10;/, `$1 ${monitor};`),
    );
    const [fromMonitor, fromElsewhere] = [
      await connectH2(scraping, monitor),
      await connectH2(scraping, '127.0.0.21'),
    ];
    try {
      const scraped = await get(fromMonitor, '/metrics', bearer);
      expect(scraped.status).toBe(200);
      expect(scraped.body.toString('utf8')).toContain('signpost_http_requests_total');
      // Passed on (the server's answer, not nginx's 404), and refused there without the token.
      const tokenless = await get(fromMonitor, '/metrics');
      expect(tokenless.status).toBe(401);
      expect(tokenless.headers['x-request-id']).toBeDefined();
      expect(tokenless.body.toString('utf8')).toContain('METRICS_TOKEN');
      const other = await get(fromElsewhere, '/metrics', bearer);
      expect(other.status).toBe(403);
      expect(other.body.toString('utf8')).toMatch(NGINX_PAGE);
    } finally {
      fromMonitor.close();
      fromElsewhere.close();
      await relay.stop();
      scraping.cleanup();
    }
  });

  it('refuses a body past 3 MiB itself outside the upload addresses, and passes a smaller one to the server', async () => {
    const logins = () =>
      incoming(server.output()).filter((entry) => entry.req?.url === apiPaths.login).length;
    const post = (bytes: number) =>
      request(
        session,
        {
          ':method': 'POST',
          ':path': apiPaths.login,
          'content-type': 'application/json',
          'content-length': bytes,
        },
        [Buffer.alloc(bytes, ' ')],
      );
    const before = logins();
    // At the site's limit: it reaches the server, whose own 413 (JSON) refuses what is over its 1 MiB.
    const reached = await post(BODY_MAX_BYTES);
    expect(reached.status).toBe(413);
    expect(reached.headers['content-type']).toMatch(/^application\/json/);
    expect(json(reached)).toMatchObject({ status: 413, code: 'body_too_large' });
    expect(logins()).toBe(before + 1);
    // One byte more: nginx's own 413, and the server never hears of it.
    const refused = await post(BODY_MAX_BYTES + 1);
    expect(refused.status).toBe(413);
    expect(refused.body.toString('utf8')).toMatch(NGINX_PAGE);
    expect(refused.headers['x-request-id']).toBeUndefined();
    expect(logins()).toBe(before + 1);
  });

  it('takes the largest upload the server allows, counted against the client’s own address', async () => {
    const file = crypto.randomBytes(UPLOAD_FILE_MAX_BYTES);
    const small = [{ name: 'note.txt', bytes: Buffer.from('hello') }];
    await withinOneHour(async (attempt) => {
      const [first, second] = [`127.0.0.${2 + 2 * attempt}`, `127.0.0.${3 + 2 * attempt}`];
      const client = attempt === 0 ? session : await connectH2(site, first);
      const other = await connectH2(site, second);
      try {
        // A 25 MB file, sent by a client that names another address in its own X-Forwarded-For.
        const one = await upload(client, [{ name: 'manual.pdf', bytes: file }], {
          'x-forwarded-for': '203.0.113.9',
        });
        expect(one.status, one.body.toString('utf8')).toBe(200);
        expect(json(one)).toEqual([
          { id: expect.any(Number), original_name: 'manual.pdf', file_size: file.length },
        ]);
        const seen = incoming(server.output()).find((entry) => entry.reqId === one.headers['x-request-id']);
        expect(seen?.req?.remoteAddress).toBe(first);

        // The most one request carries: ten files of 25 MB, within client_max_body_size.
        const most = await upload(
          client,
          Array.from({ length: ISSUE_FILES_MAX }, (_, i) => ({ name: `part-${i}.bin`, bytes: file })),
        );
        expect(most.status, most.body.toString('utf8')).toBe(200);
        expect((json(most) as { file_size: number }[]).map((stored) => stored.file_size)).toEqual(
          Array<number>(ISSUE_FILES_MAX).fill(file.length),
        );

        // A byte more than 25 MB passes nginx and is refused by the server, naming the file.
        const over = await upload(client, [
          { name: 'big.iso', bytes: Buffer.concat([file, Buffer.from('!')]) },
        ]);
        expect(over.status).toBe(413);
        expect(over.body.toString('utf8')).toContain('big.iso is larger than 25 MB');

        // Four upload calls an hour per address: the fourth is this client's last; another client has its own.
        expect((await upload(client, small)).status).toBe(200);
        expect((await upload(client, small)).status).toBe(429);
        expect((await upload(other, small)).status).toBe(200);
      } finally {
        other.close();
        if (client !== session) client.close();
      }
    });
  }, 120_000);

  it('passes an upload on to the server while its bytes are still arriving', async () => {
    const uploader = await connectH2(site, '127.0.0.10');
    try {
      const [head, bytes, ...ending] = uploadBody([{ name: 'slow.log', bytes: crypto.randomBytes(4 * MIB) }]);
      const tail = Buffer.concat(ending);
      const uploads = () =>
        incoming(server.output()).filter((entry) => entry.req?.url === apiPaths.upload).length;
      const before = uploads();
      // No length declared, as a client streaming what it has not read yet sends it: nginx passes it on chunked,
      // which its HTTP/1.1 to the server allows.
      const stream = uploader.request({
        ':method': 'POST',
        ':path': apiPaths.upload,
        'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
      });
      const answer = new Promise<number>((resolve, reject) => {
        stream.on('response', (headers) => resolve(Number(headers[':status'])));
        stream.on('error', reject);
      });
      stream.write(Buffer.concat([head!, bytes!.subarray(0, MIB)]));
      // Most of the file is still to come: buffering, nginx would hold the request back until it all had.
      for (let waited = 0; uploads() === before; waited += 20) {
        if (waited > 20_000) throw new Error('the upload did not reach the server before its end was sent');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      stream.end(Buffer.concat([bytes!.subarray(MIB), tail]));
      expect(await answer).toBe(200);
      stream.resume();
    } finally {
      uploader.close();
    }
  });

  it('answers a visitor’s suggestions as they type, one after another and side by side, over one HTTP/2 connection', async () => {
    const typing = await connectH2(site, '127.0.0.2');
    try {
      // One request per pause in typing, each after the last one's answer, all on this one connection.
      const titles: string[][] = [];
      for (const text of ['the', 'therm', 'thermostat', 'thermostats in one']) {
        const answer = await get(typing, `${apiPaths.suggestions}?text=${encodeURIComponent(text)}`);
        expect(answer.status, text).toBe(200);
        titles.push((json(answer) as { items: { title: string }[] }).items.map((item) => item.title));
      }
      expect(titles.at(-1)).toContain('Use several thermostats in one home');
      // A burst of them at once goes over the same connection side by side.
      const burst = await Promise.all(
        ['boost', 'schedule', 'sensor'].map((text) => get(typing, `${apiPaths.suggestions}?text=${text}`)),
      );
      expect(burst.map((answer) => answer.status)).toEqual([200, 200, 200]);
    } finally {
      typing.close();
    }
  });

  it('backs up nightly with signpost-backup, keeping the newest BACKUP_KEEP files', async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'signpost-backups-'));
    try {
      const older = ['2000-01-01', '2000-01-02', '2000-01-03'];
      for (const day of older) {
        fs.writeFileSync(path.join(folder, `signpost-${day}.signpost.gz`), 'old');
        fs.writeFileSync(path.join(folder, `signpost-${day}.pgdump`), 'old');
      }
      fs.writeFileSync(path.join(folder, 'notes.txt'), 'kept');
      const env = {
        PATH: process.env.PATH ?? '',
        ...environment.env,
        BACKUP_DIR: folder,
        BACKUP_KEEP: '2',
        SIGNPOST_DIR: ROOT,
      };
      const script = path.join(DEPLOY, 'backup/signpost-backup');
      // The day in UTC, as the script names its file; a run across midnight may name either.
      const days = [new Date().toISOString().slice(0, 10)];
      const backup = await run(script, ['signpost'], { env, cwd: os.tmpdir() });
      expect(backup.code, backup.stderr).toBe(0);
      if (dialect === 'postgres') {
        // The test's URL names its schema in `options`, its space written `+` as URLSearchParams writes it, which
        // node-postgres reads as a space and libpq does not: %20 for pg_dump.
        const url = environment.env.DATABASE_URL!.replaceAll('+', '%20');
        const dump = await run(script, ['pg_dump'], { env: { ...env, DATABASE_URL: url }, cwd: os.tmpdir() });
        expect(dump.code, dump.stderr).toBe(0);
      }
      days.push(new Date().toISOString().slice(0, 10));
      const made = (suffix: string) =>
        fs.readdirSync(folder).find((name) => days.some((day) => name === `signpost-${day}${suffix}`));
      const written = made('.signpost.gz');
      expect(written).toBeDefined();
      const kept = ['notes.txt', written!, 'signpost-2000-01-03.signpost.gz'];
      if (dialect === 'postgres') {
        const dumped = made('.pgdump');
        expect(dumped).toBeDefined();
        kept.push(dumped!, 'signpost-2000-01-03.pgdump');
        // The server's tables, in the schema the test made.
        const listed = await run('pg_restore', ['--list', path.join(folder, dumped!)]);
        expect(listed.stdout).toContain(`TABLE ${environment.schema} articles`);
      } else {
        // Only its own kind of file is pruned.
        kept.push(...older.map((day) => `signpost-${day}.pgdump`));
      }
      expect(fs.readdirSync(folder).sort()).toEqual(kept.sort());

      // What it wrote restores into a new install.
      const target = await createTestEnvironment('sqlite');
      try {
        const restore = await signpost(['restore', path.join(folder, written!)], target.env);
        expect(restore.stderr).toBe('');
        expect(restore.stdout).toMatch(/^restored /);
      } finally {
        await target.cleanup();
      }
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('the systemd units', () => {
  const units = fs
    .readdirSync(path.join(DEPLOY, 'systemd'))
    .filter((file) => /\.(service|timer)$/.test(file));

  it('pass systemd-analyze verify', async () => {
    expect(units.sort()).toEqual([
      'signpost-backup.service',
      'signpost-backup.timer',
      'signpost-pg-dump.service',
      'signpost-pg-dump.timer',
      'signpost.service',
    ]);
    // verify checks that each ExecStart program exists and is executable: the copies name this checkout's Node,
    // command and backup script where the committed units name the install's (/opt/signpost, /usr/local/bin).
    // Nothing else is changed; the signpost user, /etc/signpost and /var/lib/signpost need not exist for verify.
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'signpost-units-'));
    try {
      for (const unit of units) {
        let text = readDeploy(`systemd/${unit}`);
        if (unit.endsWith('.service')) {
          expect(text, unit).toMatch(/^ExecStart=(\/opt\/signpost\/|\/usr\/local\/bin\/signpost-backup )/m);
          text = text
            .replaceAll('/opt/signpost', ROOT)
            .replaceAll('/usr/local/bin/signpost-backup', path.join(DEPLOY, 'backup/signpost-backup'));
        }
        fs.writeFileSync(path.join(folder, unit), text);
      }
      const verified = await run(SYSTEMD_ANALYZE, [
        'verify',
        ...units.map((unit) => path.join(folder, unit)),
      ]);
      expect(verified.stderr).toBe('');
      expect(verified.code).toBe(0);
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });

  it('start the server with the Node installed with it, and leave out what V8’s compiler cannot run under', () => {
    const unit = readDeploy('systemd/signpost.service');
    const [node, bin, command] = execStart(unit);
    expect([node, bin, command]).toEqual([
      path.join(ROOT, 'node_modules/node/bin/node'),
      path.join(ROOT, 'bin/signpost.js'),
      'serve',
    ]);
    expect(fs.existsSync(node!)).toBe(true);
    expect(unit).not.toMatch(/^MemoryDenyWriteExecute=/m);
    expect(unit).toMatch(/^EnvironmentFile=\/etc\/signpost\/signpost\.env$/m);
  });
});

describe('signpost-backup', () => {
  it('refuses an unknown method and pg_dump without a PostgreSQL DATABASE_URL, writing nothing', async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'signpost-backups-'));
    try {
      const script = path.join(DEPLOY, 'backup/signpost-backup');
      const env = { PATH: process.env.PATH ?? '', BACKUP_DIR: folder };
      const unknown = await run(script, ['tar'], { env });
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toBe('usage: signpost-backup signpost|pg_dump\n');
      const sqlite = await run(script, ['pg_dump'], { env: { ...env, DATABASE_URL: 'sqlite:/tmp/x.db' } });
      expect(sqlite.code).toBe(2);
      expect(sqlite.stderr).toContain('pg_dump needs DATABASE_URL to name a PostgreSQL database');
      const keep = await run(script, ['signpost'], { env: { ...env, BACKUP_KEEP: '0' } });
      expect(keep.code).toBe(2);
      expect(fs.readdirSync(folder)).toEqual([]);
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });

  it('gives pg_dump the database URL without its password, and the password decoded in PGPASSWORD', async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'signpost-backups-'));
    try {
      // A pg_dump that writes down its arguments and its PGPASSWORD, and the file it is asked for.
      const bin = path.join(folder, 'bin');
      fs.mkdirSync(bin);
      fs.writeFileSync(
        path.join(bin, 'pg_dump'),
        `#!/bin/sh
printf '%s\\n' "$@" > "$SEEN.argv"
printf '%s' "\${PGPASSWORD-(unset)}" > "$SEEN.password"
for arg; do case $arg in --file=*) : > "\${arg#--file=}" ;; esac; done
`,
        { mode: 0o755 },
      );
      const backups = path.join(folder, 'backups');
      fs.mkdirSync(backups);
      const script = path.join(DEPLOY, 'backup/signpost-backup');
      const seen = path.join(folder, 'seen');
      const dump = async (url: string) => {
        const env = {
          PATH: `${bin}:${process.env.PATH ?? ''}`,
          BACKUP_DIR: backups,
          SEEN: seen,
          DATABASE_URL: url,
        };
        const ran = await run(script, ['pg_dump'], { env });
        expect(ran.code, ran.stderr).toBe(0);
        const argv = fs.readFileSync(`${seen}.argv`, 'utf8').split('\n').slice(0, -1);
        return { argv, password: fs.readFileSync(`${seen}.password`, 'utf8') };
      };

      const secret = await dump(
        'postgres://sign%2Fpost:p%40ss%3Aw%25rd%2F%C3%A9%20x@db.example:5433/helpdesk?sslmode=require',
      );
      expect(secret.argv.at(-1)).toBe('postgres://sign%2Fpost@db.example:5433/helpdesk?sslmode=require');
      expect(secret.argv.join(' ')).not.toMatch(/p%40ss|p@ss/);
      expect(secret.password).toBe('p@ss:w%rd/é x');
      // No password in the URL: none is made up, and the URL goes as it is (a socket, peer authentication).
      const socket = await dump('postgresql://signpost@/signpost?host=/run/postgresql');
      expect(socket.argv.at(-1)).toBe('postgresql://signpost@/signpost?host=/run/postgresql');
      expect(socket.password).toBe('(unset)');
      expect(fs.readdirSync(backups)).toEqual([
        expect.stringMatching(/^signpost-\d{4}-\d{2}-\d{2}\.pgdump$/),
      ]);

      const query = await run(script, ['pg_dump'], {
        env: {
          PATH: `${bin}:${process.env.PATH ?? ''}`,
          BACKUP_DIR: backups,
          SEEN: seen,
          DATABASE_URL: 'postgres://signpost@db/signpost?password=x',
        },
      });
      expect(query.code).toBe(2);
      expect(query.stderr).toContain('not in ?password=');
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });
});
