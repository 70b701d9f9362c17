import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export type DatabaseConfig = ({ dialect: 'sqlite'; file: string } | { dialect: 'postgres'; url: string }) & {
  /** How long one query may wait (PostgreSQL: to answer; SQLite: for another process's write lock); 0: no limit. */
  timeoutMs: number;
};

/** Where stored files' bytes live: in the database (every server sees them) or in a folder. */
export interface FileStorageConfig {
  kind: 'database' | 'disk';
  /** The folder, for `disk`. */
  dir: string;
}

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  publicUrl: string;
  portalUrl: string | null;
  database: DatabaseConfig;
  fileStorage: FileStorageConfig;
  logLevel: string;
  captcha: CaptchaConfig;
  demoContent: boolean;
  analytics: AnalyticsConfig | null;
  tickets: TicketsConfig;
  /** Bearer token GET /metrics requires; null: see metricsPublic. */
  metricsToken: string | null;
  /**
   * Without a token, whether GET /metrics answers anyone (`METRICS_PUBLIC=true`) or only this machine: a loopback
   * peer that no proxy relays (no X-Forwarded-*, Forwarded, Via, X-Real-IP... header: ops/metrics.routes.ts).
   */
  metricsPublic: boolean;
  cache: CacheConfig;
  /** Server processes sharing the port (`WORKERS`; `auto`: one per core). */
  workers: number;
  /** Which X-Forwarded-For entries name the client (`TRUST_PROXY`), for every limit, log line and host. */
  trustProxy: TrustProxy;
  /** Who may show the public pages in a frame (`FRAME_ANCESTORS`), as CSP sources; `'none'` unless named. */
  frameAncestors: string[];
  passwords: PasswordConfig;
  /** Who may open an account in the customer portal (`SIGNUP`). */
  signup: SignupPolicy;
  /** The mailbox customers' answers by email arrive in (`IMAP_URL`); null: replies by email are not read. */
  imap: ImapConfig | null;
  /** Semantic matching through an embeddings endpoint (`EMBEDDINGS_URL`); null: words only (the default). */
  embeddings: EmbeddingsConfig | null;
  /** `snapshot`: the index is kept in the data folder and read at start instead of built (SEARCH_SNAPSHOT). */
  search: { snapshot: boolean };
}

/**
 * An OpenAI-compatible embeddings endpoint (POST `{ model, input: [texts] }`, answering `{ data: [{ embedding }] }`):
 * a hosted one or a local server (llama.cpp, Ollama, text-embeddings-inference). Articles are embedded once per
 * version and kept in the database; a query's embedding is asked for as it is searched, within `timeoutMs`.
 */
export interface EmbeddingsConfig {
  url: string;
  model: string;
  /** Sent as a bearer token (`EMBEDDINGS_API_KEY`), if any. */
  apiKey: string | null;
  /** How much the semantic ranking counts against the words' (`EMBEDDINGS_WEIGHT`, 1 = as much). */
  weight: number;
  /** The least cosine similarity for an article to be found by meaning alone (`EMBEDDINGS_MIN_SIMILARITY`). */
  minSimilarity: number;
  /** How long a search waits for its query's embedding before answering from words alone. */
  timeoutMs: number;
}

/** A mailbox read for replies by email: an IMAP server, an account on it, one folder, how often it is read. */
export interface ImapConfig {
  host: string;
  port: number;
  /** TLS from the first byte (`imaps://`); `imap://` upgrades with STARTTLS when the server offers it. */
  secure: boolean;
  user: string;
  password: string;
  /** The folder read (the URL's path), INBOX by default. */
  mailbox: string;
  /** Time between two reads of the mailbox (`IMAP_POLL_SECONDS`), in ms. */
  pollMs: number;
  /**
   * The authserv-id the mailbox's own mail server writes its Authentication-Results under (`IMAP_AUTHSERV_ID`): set,
   * a reply joins its thread only if that server vouched for its From; null: not asked.
   */
  authservId: string | null;
}

/**
 * `open` (anyone, once the email is verified), `domains` (verified addresses at these domains only), `invite` (only
 * accounts the team makes) or `off` (the same, said plainly: nobody signs up).
 */
export type SignupPolicy =
  { mode: 'open' } | { mode: 'domains'; domains: string[] } | { mode: 'invite' } | { mode: 'off' };

/** How passwords are hashed (scrypt, r=8, p=1), and how many hashes one process computes at once. */
export interface PasswordConfig {
  /** scrypt's cost N (`PASSWORD_SCRYPT_N`): a power of two; memory per hash is 128 * N * 8 bytes. */
  scryptN: number;
  /** Hashes computed at once (`PASSWORD_HASHING_CONCURRENCY`). */
  hashingConcurrency: number;
  /** Hashes that may wait for a turn (`PASSWORD_HASHING_QUEUE`); past them, sign-in answers 503. */
  hashingQueue: number;
}

/** The in-memory cache of public answers (src/server/http/response-cache.ts). */
export interface CacheConfig {
  /** How often a server reads the content's revision (ms): changes through another server show within this. */
  revisionCheckMs: number;
  /** Seconds browsers and CDNs may reuse a public answer without asking; 0 means they always ask (304). */
  maxAge: number;
  /** Memory for cached answers, in bytes. */
  maxBytes: number;
}

/** Where tickets go, and how much a single client may send. */
export interface TicketsConfig {
  webhookUrl: string | null;
  /** HMAC-SHA256 key for the webhook's signature header; without one the webhook is not signed. */
  webhookSecret: string | null;
  supportEmail: string | null;
  smtpUrl: string | null;
  mailFrom: string;
  requestsPerHour: number;
  uploadsPerHour: number;
  /** Bytes one client address may upload in an hour (`UPLOAD_MB_PER_HOUR`). */
  uploadBytesPerHour: number;
  /** Bytes of uploads not yet sent with a request kept at once, from everyone (`UPLOADS_PENDING_MAX_MB`). */
  pendingUploadBytesMax: number;
}

/**
 * The proxies in front of the server, whose X-Forwarded-For entries are believed: none (false); a number of them
 * (the client is that many entries from the right, the last one being the nearest proxy's); or their addresses and
 * CIDR ranges (the client is the first entry from the right that is not one of them). Entries further left were
 * written by the client itself and are never believed.
 */
export type TrustProxy = false | number | string[];

/** An operator's analytics snippet (HTML), added to every public page, on the given hosts only if any are named. */
export interface AnalyticsConfig {
  snippet: string;
  hosts: string[] | null;
  /** Further origins the snippet's scripts load from or send to, for the pages' Content-Security-Policy. */
  cspSources?: string[];
}

export type CaptchaConfig =
  | { provider: 'altcha' }
  | { provider: 'none' }
  | { provider: 'recaptcha'; siteKey: string; secret: string; verifyUrl: string };

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    problem: string,
  ) {
    super(`${variable}: ${problem}`);
  }
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function parsePort(raw: string): number {
  if (!/^\d+$/.test(raw)) throw new ConfigError('PORT', `"${raw}" is not a port number (0 to 65535)`);
  const port = Number(raw);
  if (port > 65535) throw new ConfigError('PORT', `${port} is above 65535`);
  return port;
}

function parseHttpUrl(variable: string, raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(variable, `"${raw}" is not a URL (expected e.g. https://help.example.com)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(variable, `"${raw}" must start with http:// or https://`);
  }
  return url.toString().replace(/\/+$/, '');
}

function parseDatabase(env: NodeJS.ProcessEnv, dataDir: string): DatabaseConfig {
  const timeoutMs = parseCount('DATABASE_TIMEOUT_MS', env.DATABASE_TIMEOUT_MS, 5_000, 3_600_000);
  return { ...parseDatabaseUrl(env.DATABASE_URL, dataDir), timeoutMs };
}

function parseFileStorage(
  env: NodeJS.ProcessEnv,
  dataDir: string,
  database: DatabaseConfig,
): FileStorageConfig {
  const kind = env.FILE_STORAGE || (database.dialect === 'postgres' ? 'database' : 'disk');
  if (kind !== 'database' && kind !== 'disk') {
    throw new ConfigError('FILE_STORAGE', `must be database or disk, not "${kind}"`);
  }
  return { kind, dir: path.resolve(env.FILE_STORAGE_DIR || path.join(dataDir, 'files')) };
}

function parseDatabaseUrl(
  raw: string | undefined,
  dataDir: string,
): { dialect: 'sqlite'; file: string } | { dialect: 'postgres'; url: string } {
  if (!raw) return { dialect: 'sqlite', file: path.join(dataDir, 'signpost.db') };
  if (/^postgres(ql)?:\/\//.test(raw)) {
    try {
      new URL(raw);
    } catch {
      throw new ConfigError('DATABASE_URL', 'is not a valid postgres:// URL');
    }
    return { dialect: 'postgres', url: raw };
  }
  if (raw.startsWith('sqlite:')) {
    const file = raw.slice('sqlite:'.length).replace(/^\/\//, '');
    if (!file)
      throw new ConfigError('DATABASE_URL', 'sqlite: needs a file path, e.g. sqlite:./data/signpost.db');
    return { dialect: 'sqlite', file: file === ':memory:' ? file : path.resolve(file) };
  }
  throw new ConfigError(
    'DATABASE_URL',
    'must be a postgres:// URL or sqlite:PATH (unset: SQLite under DATA_DIR)',
  );
}

function parseFlag(variable: string, raw: string | undefined, fallback: boolean): boolean {
  if (raw === undefined || raw === '') return fallback;
  if (['true', '1', 'yes', 'on'].includes(raw.toLowerCase())) return true;
  if (['false', '0', 'no', 'off'].includes(raw.toLowerCase())) return false;
  throw new ConfigError(variable, `must be true or false, not "${raw}"`);
}

function parseAnalytics(env: NodeJS.ProcessEnv): AnalyticsConfig | null {
  const file = env.ANALYTICS_SNIPPET_FILE;
  if (!file) {
    if (env.ANALYTICS_HOSTS) throw new ConfigError('ANALYTICS_HOSTS', 'needs ANALYTICS_SNIPPET_FILE');
    return null;
  }
  let snippet: string;
  try {
    snippet = fs.readFileSync(path.resolve(file), 'utf8');
  } catch {
    throw new ConfigError('ANALYTICS_SNIPPET_FILE', `cannot read ${file}`);
  }
  const hosts =
    env.ANALYTICS_HOSTS?.split(',')
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean) ?? [];
  const cspSources = (env.ANALYTICS_CSP_SOURCES ?? '').split(/[\s,]+/).filter(Boolean);
  for (const source of cspSources) {
    if (!/^https:\/\/(\*\.)?[a-z0-9.-]+(:\d+)?$/i.test(source))
      throw new ConfigError(
        'ANALYTICS_CSP_SOURCES',
        `must list https origins (https://host), not "${source}"`,
      );
  }
  return { snippet, hosts: hosts.length ? hosts : null, cspSources };
}

function parsePositive(variable: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < 1)
    throw new ConfigError(variable, `must be a whole number of at least 1, not "${raw}"`);
  return Number(raw);
}

const isAddressOrRange = (entry: string) => {
  const [address = '', prefix, extra] = entry.split('/');
  const family = net.isIP(address);
  if (!family || extra !== undefined) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128));
};

/** A size in megabytes, from 1 to a million, as bytes. */
function parseMegabytes(variable: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback * 1024 * 1024;
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > 1_000_000)
    throw new ConfigError(variable, `must be a whole number of megabytes from 1 to 1000000, not "${raw}"`);
  return Number(raw) * 1024 * 1024;
}

function parseTrustProxy(raw: string | undefined): TrustProxy {
  const value = raw?.trim() ?? '';
  if (value === '' || value === 'false') return false;
  if (value === 'true') return 1;
  if (/^\d+$/.test(value)) {
    if (Number(value) >= 1 && Number(value) <= 100) return Number(value);
  } else {
    const proxies = value.split(',').map((entry) => entry.trim());
    if (proxies.every(isAddressOrRange)) return proxies;
  }
  throw new ConfigError(
    'TRUST_PROXY',
    `must be false, true (one proxy in front), the number of proxies in front (1 to 100), or the proxies' ` +
      `addresses or CIDR ranges separated by commas, not "${raw}"`,
  );
}

function parseTickets(env: NodeJS.ProcessEnv, publicUrl: string): TicketsConfig {
  const webhookUrl = env.TICKET_WEBHOOK_URL
    ? parseHttpUrl('TICKET_WEBHOOK_URL', env.TICKET_WEBHOOK_URL)
    : null;
  const supportEmail = env.SUPPORT_EMAIL?.trim() || null;
  if (supportEmail && !/^[^\s@]+@[^\s@]+$/.test(supportEmail))
    throw new ConfigError('SUPPORT_EMAIL', 'is not an email address');
  const smtpUrl = env.SMTP_URL?.trim() || null;
  if (smtpUrl && !/^smtps?:\/\//.test(smtpUrl))
    throw new ConfigError('SMTP_URL', 'must start with smtp:// or smtps://');
  if (supportEmail && !smtpUrl) throw new ConfigError('SMTP_URL', 'is required when SUPPORT_EMAIL is set');
  return {
    webhookUrl,
    webhookSecret: env.TICKET_WEBHOOK_SECRET || null,
    supportEmail,
    smtpUrl,
    mailFrom: env.MAIL_FROM?.trim() || `Signpost <no-reply@${new URL(publicUrl).hostname}>`,
    requestsPerHour: parsePositive('REQUESTS_PER_HOUR', env.REQUESTS_PER_HOUR, 20),
    uploadsPerHour: parsePositive('UPLOADS_PER_HOUR', env.UPLOADS_PER_HOUR, 60),
    uploadBytesPerHour: parseMegabytes('UPLOAD_MB_PER_HOUR', env.UPLOAD_MB_PER_HOUR, 500),
    pendingUploadBytesMax: parseMegabytes('UPLOADS_PENDING_MAX_MB', env.UPLOADS_PENDING_MAX_MB, 5120),
  };
}

function parseCaptcha(env: NodeJS.ProcessEnv): CaptchaConfig {
  const provider = env.CAPTCHA_PROVIDER ?? 'altcha';
  if (provider === 'altcha' || provider === 'none') return { provider };
  if (provider !== 'recaptcha')
    throw new ConfigError('CAPTCHA_PROVIDER', 'must be altcha, recaptcha or none');
  if (!env.RECAPTCHA_SITE_KEY)
    throw new ConfigError('RECAPTCHA_SITE_KEY', 'is required when CAPTCHA_PROVIDER=recaptcha');
  if (!env.RECAPTCHA_SECRET)
    throw new ConfigError('RECAPTCHA_SECRET', 'is required when CAPTCHA_PROVIDER=recaptcha');
  const verifyUrl = parseHttpUrl(
    'RECAPTCHA_VERIFY_URL',
    env.RECAPTCHA_VERIFY_URL ?? 'https://www.google.com/recaptcha/api/siteverify',
  );
  return { provider, siteKey: env.RECAPTCHA_SITE_KEY, secret: env.RECAPTCHA_SECRET, verifyUrl };
}

function parseMetricsToken(raw: string | undefined): string | null {
  if (!raw) return null;
  if (raw.length < 16 || /\s/.test(raw))
    throw new ConfigError('METRICS_TOKEN', 'must be at least 16 characters without spaces');
  return raw;
}

function parseFrameAncestors(raw: string | undefined): string[] {
  const sources = (raw ?? '').split(/[\s,]+/).filter(Boolean);
  if (sources.length === 0) return ["'none'"];
  const parsed = sources.map((source) => {
    if (source === 'self' || source === "'self'") return "'self'";
    if (/^https?:\/\/(\*\.)?[a-z0-9.-]+(:\d+)?$/i.test(source)) return source;
    throw new ConfigError(
      'FRAME_ANCESTORS',
      `must list http(s) origins (https://portal.example.com) or self, not "${source}"; unset forbids framing`,
    );
  });
  return [...new Set(parsed)];
}

function parseWorkers(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 1;
  if (raw === 'auto') return os.availableParallelism();
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > 256) {
    throw new ConfigError('WORKERS', `"${raw}" must be a number of processes from 1 to 256, or auto`);
  }
  return Number(raw);
}

/** A decimal number from `min` to `max`, or the default when unset. */
function parseDecimal(variable: string, raw: string | undefined, fallback: number, min: number, max: number) {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!/^\d+(\.\d+)?$/.test(raw) || value < min || value > max) {
    throw new ConfigError(variable, `"${raw}" is not a number from ${min} to ${max}`);
  }
  return value;
}

function parseEmbeddings(env: NodeJS.ProcessEnv): EmbeddingsConfig | null {
  if (!env.EMBEDDINGS_URL) {
    if (env.EMBEDDINGS_MODEL_DIR)
      throw new ConfigError(
        'EMBEDDINGS_MODEL_DIR',
        'is not supported: serve the model with an OpenAI-compatible embeddings server and set EMBEDDINGS_URL',
      );
    return null;
  }
  const url = parseHttpUrl('EMBEDDINGS_URL', env.EMBEDDINGS_URL);
  const model = (env.EMBEDDINGS_MODEL ?? '').trim();
  if (!model)
    throw new ConfigError('EMBEDDINGS_MODEL', 'is required with EMBEDDINGS_URL (the model to ask for)');
  return {
    url,
    model,
    apiKey: env.EMBEDDINGS_API_KEY || null,
    weight: parseDecimal('EMBEDDINGS_WEIGHT', env.EMBEDDINGS_WEIGHT, 1, 0, 10),
    minSimilarity: parseDecimal('EMBEDDINGS_MIN_SIMILARITY', env.EMBEDDINGS_MIN_SIMILARITY, 0.3, 0, 1),
    timeoutMs: parseCount('EMBEDDINGS_TIMEOUT_MS', env.EMBEDDINGS_TIMEOUT_MS, 1_000, 60_000),
  };
}

/** A whole number from 0 to `max`, or the default when unset. */
function parseCount(variable: string, raw: string | undefined, fallback: number, max: number): number {
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) > max) {
    throw new ConfigError(variable, `"${raw}" is not a whole number from 0 to ${max}`);
  }
  return Number(raw);
}

/** N=2^17 is OWASP's recommended minimum for scrypt with r=8, p=1; 2^20 (1 GiB a hash) is as far as we go. */
const MIN_SCRYPT_N = 1024;
const MAX_SCRYPT_N = 1_048_576;

function parsePasswords(env: NodeJS.ProcessEnv): PasswordConfig {
  const raw = env.PASSWORD_SCRYPT_N;
  const scryptN = raw === undefined || raw === '' ? 131_072 : Number(raw);
  if (
    !/^\d*$/.test(raw ?? '') ||
    scryptN < MIN_SCRYPT_N ||
    scryptN > MAX_SCRYPT_N ||
    (scryptN & (scryptN - 1)) !== 0
  ) {
    throw new ConfigError(
      'PASSWORD_SCRYPT_N',
      `"${raw}" must be a power of two from ${MIN_SCRYPT_N} to ${MAX_SCRYPT_N} (default 131072)`,
    );
  }
  const hashingConcurrency = parsePositive(
    'PASSWORD_HASHING_CONCURRENCY',
    env.PASSWORD_HASHING_CONCURRENCY,
    2,
  );
  if (hashingConcurrency > 64)
    throw new ConfigError('PASSWORD_HASHING_CONCURRENCY', `${hashingConcurrency} is above 64`);
  const hashingQueue = parseCount('PASSWORD_HASHING_QUEUE', env.PASSWORD_HASHING_QUEUE, 16, 10_000);
  return { scryptN, hashingConcurrency, hashingQueue };
}

const DOMAIN_PATTERN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

export function parseSignup(raw: string | undefined): SignupPolicy {
  const value = (raw ?? 'open').trim();
  if (value === 'open' || value === '') return { mode: 'open' };
  if (value === 'invite' || value === 'off') return { mode: value };
  if (value.startsWith('domains:')) {
    const domains = value
      .slice('domains:'.length)
      .split(',')
      .map((domain) => domain.trim().toLowerCase())
      .filter(Boolean);
    if (domains.length === 0)
      throw new ConfigError('SIGNUP', 'domains: names no domain (domains:example.com,...)');
    const wrong = domains.find((domain) => !DOMAIN_PATTERN.test(domain));
    if (wrong) throw new ConfigError('SIGNUP', `"${wrong}" is not a domain name`);
    return { mode: 'domains', domains };
  }
  throw new ConfigError('SIGNUP', `"${value}" must be open, domains:example.com,..., invite or off`);
}

function parseImap(env: NodeJS.ProcessEnv): ImapConfig | null {
  const raw = env.IMAP_URL?.trim();
  if (!raw) {
    if (env.IMAP_POLL_SECONDS) throw new ConfigError('IMAP_POLL_SECONDS', 'needs IMAP_URL');
    if (env.IMAP_AUTHSERV_ID) throw new ConfigError('IMAP_AUTHSERV_ID', 'needs IMAP_URL');
    return null;
  }
  const example = 'e.g. imaps://user:password@imap.example.com/INBOX';
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError('IMAP_URL', `is not a URL (${example})`);
  }
  if (url.protocol !== 'imap:' && url.protocol !== 'imaps:')
    throw new ConfigError('IMAP_URL', `must start with imaps:// or imap:// (${example})`);
  if (!url.hostname) throw new ConfigError('IMAP_URL', `names no server (${example})`);
  if (!url.username) throw new ConfigError('IMAP_URL', `names no user (${example})`);
  let mailbox: string, user: string, password: string;
  try {
    mailbox = decodeURIComponent(url.pathname.replace(/^\/+|\/+$/g, ''));
    user = decodeURIComponent(url.username);
    password = decodeURIComponent(url.password);
  } catch {
    throw new ConfigError('IMAP_URL', 'has a user, password or mailbox that is not valid percent-encoding');
  }
  const secure = url.protocol === 'imaps:';
  const authservId = env.IMAP_AUTHSERV_ID?.trim() || null;
  // A host name as RFC 8601 writes it (e.g. mx.example.com): one token, nothing a header could hide behind.
  if (authservId !== null && !/^[A-Za-z0-9][A-Za-z0-9.-]{0,252}$/.test(authservId))
    throw new ConfigError(
      'IMAP_AUTHSERV_ID',
      'must be the host name the mail server writes (e.g. mx.example.com)',
    );
  return {
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: url.port ? Number(url.port) : secure ? 993 : 143,
    secure,
    user,
    password,
    mailbox: mailbox || 'INBOX',
    pollMs: parsePositive('IMAP_POLL_SECONDS', env.IMAP_POLL_SECONDS, 60) * 1000,
    authservId,
  };
}

/** Reads and checks the configuration once; a bad value throws a ConfigError naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = parsePort(env.PORT ?? '3000');
  const host = env.HOST ?? '0.0.0.0';
  if (!host.trim()) throw new ConfigError('HOST', 'is empty');
  const dataDir = path.resolve(env.DATA_DIR ?? './data');
  const publicUrl = parseHttpUrl('PUBLIC_URL', env.PUBLIC_URL ?? `http://localhost:${port}`);
  const portalUrl = env.PORTAL_URL ? parseHttpUrl('PORTAL_URL', env.PORTAL_URL) : null;
  const database = parseDatabase(env, dataDir);
  const logLevel = env.LOG_LEVEL ?? 'info';
  if (!LOG_LEVELS.includes(logLevel))
    throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}`);
  return {
    port,
    host,
    dataDir,
    publicUrl,
    portalUrl,
    database,
    fileStorage: parseFileStorage(env, dataDir, database),
    logLevel,
    captcha: parseCaptcha(env),
    demoContent: parseFlag('DEMO_CONTENT', env.DEMO_CONTENT, true),
    analytics: parseAnalytics(env),
    tickets: parseTickets(env, publicUrl),
    metricsToken: parseMetricsToken(env.METRICS_TOKEN),
    metricsPublic: parseFlag('METRICS_PUBLIC', env.METRICS_PUBLIC, false),
    workers: parseWorkers(env.WORKERS),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    frameAncestors: parseFrameAncestors(env.FRAME_ANCESTORS),
    passwords: parsePasswords(env),
    signup: parseSignup(env.SIGNUP),
    imap: parseImap(env),
    embeddings: parseEmbeddings(env),
    search: { snapshot: parseFlag('SEARCH_SNAPSHOT', env.SEARCH_SNAPSHOT, true) },
    cache: {
      revisionCheckMs: parseCount('REVISION_CHECK_MS', env.REVISION_CHECK_MS, 250, 60_000),
      maxAge: parseCount('CACHE_MAX_AGE', env.CACHE_MAX_AGE, 0, 31_536_000),
      maxBytes: parseCount('CACHE_MAX_MB', env.CACHE_MAX_MB, 64, 65_536) * 1024 * 1024,
    },
  };
}
