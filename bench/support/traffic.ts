/**
 * What the soak and fault benchmarks share: starting `signpost serve`, finding the demo help centre's addresses,
 * and the visitors' requests (pages, API calls, suggestions, support requests with a small upload).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface Server {
  name: string;
  url: string;
  child: ChildProcess;
  /** The server's output, for a report when it fails. */
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts `signpost serve` on `port` and waits until it answers; under `prefix` when given (`taskset -c 0`: on the
 * cores named, its workers too).
 */
export async function startSignpost(
  name: string,
  port: number,
  env: Record<string, string>,
  prefix: string[] = [],
): Promise<Server> {
  // Node's own flags for the server when asked (a profiler: BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=DIR").
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  // The command runs the built server: built first when missing or older than the sources.
  execFileSync(process.execPath, [path.join(ROOT, 'scripts/build.js'), '--if-stale'], { stdio: 'inherit' });
  const command = [...prefix, process.execPath, ...nodeArgs, path.join(ROOT, 'bin/signpost.js'), 'serve'];
  const child = spawn(command[0] as string, command.slice(1), {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      LOG_LEVEL: 'warn',
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const url = `http://127.0.0.1:${port}`;
  const server: Server = {
    name,
    url,
    child,
    output: () => output,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await Promise.race([exited, sleep(10_000)]);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}:\n${output}`);
    try {
      if ((await fetch(`${url}/api/settings/branding`)).ok) return server;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error(`${name} did not start:\n${output}`);
}

export interface Site {
  pages: string[];
  calls: string[];
  words: string[];
}

/** The demo help centre's public addresses: pages and API calls for every section, category and article. */
export async function discoverSite(base: string): Promise<Site> {
  const json = async <T>(url: string): Promise<T> => {
    const response = await fetch(`${base}${url}`);
    if (!response.ok) throw new Error(`${url}: ${response.status}`);
    return (await response.json()) as T;
  };
  const sections = await json<{ id: number }[]>('/api/knowledge/all-sections');
  const categories = await json<{ items: { id: number; name: string }[] }>(
    '/api/knowledge/category?per_page=100',
  );
  const articles = await json<{ items: { id: number; title: string }[] }>(
    '/api/knowledge/instruction?per_page=500',
  );
  const pages = [
    '/knowledge/',
    ...categories.items.map((c) => `/knowledge/category/${c.id}`),
    ...articles.items.map((a) => `/knowledge/instruction/${a.id}`),
  ];
  const calls = [
    '/api/knowledge/all-sections',
    '/api/settings/branding',
    ...sections.map((s) => `/api/knowledge/category?section_id=${s.id}`),
    ...categories.items.map((c) => `/api/knowledge/instruction?category_id=${c.id}`),
    ...articles.items.map((a) => `/api/knowledge/instruction/${a.id}`),
  ];
  const words = [
    ...new Set(
      [...categories.items.map((c) => c.name), ...articles.items.map((a) => a.title)]
        .join(' ')
        .toLowerCase()
        .split(/[^\p{L}\p{N}]+/u)
        .filter((w) => w.length >= 3),
    ),
  ];
  return { pages, calls, words };
}

export const pick = <T>(items: T[]): T => items[Math.floor(Math.random() * items.length)] as T;

/** What visitors type: a word, a prefix of one, two words, sometimes with a typo. */
export function searchText(words: string[]): string {
  const word = pick(words);
  switch (Math.floor(Math.random() * 4)) {
    case 0:
      return word;
    case 1:
      return word.slice(0, 3 + Math.floor(Math.random() * Math.max(1, word.length - 3)));
    case 2:
      return `${word} ${pick(words)}`;
    default: {
      const at = Math.floor(Math.random() * word.length);
      return word.slice(0, at) + word.slice(at + 1);
    }
  }
}

export interface Outcome {
  status: number;
  /** Set when no HTTP answer came: connection refused, reset, timed out. */
  error?: string;
  /** The ticket id of an acknowledged support request. */
  ticketId?: number;
}

async function call(
  url: string,
  init: RequestInit = {},
  timeoutMs = 30_000,
): Promise<Outcome & { body?: unknown; cookie?: string }> {
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    const text = await response.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    const cookie = response.headers.get('set-cookie')?.split(';')[0];
    return { status: response.status, body, ...(cookie ? { cookie } : {}) };
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause;
    return { status: 0, error: cause?.code ?? (error as Error).name ?? 'error' };
  }
}

export const read = (base: string, target: string) => call(`${base}${target}`);

export const suggest = (base: string, words: string[]) =>
  call(
    `${base}/api/search/knowledge/suggestions?text=${encodeURIComponent(searchText(words))}&limit=5&perPage=5`,
  );

/**
 * What the site reports after a search (no personal data), from a visitor's own address as a proxy forwards it
 * (the server needs TRUST_PROXY): each address may report 600 an hour.
 */
export const searchEvent = (base: string, words: string[]) =>
  call(`${base}/api/search/events`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-forwarded-for': `10.${crypto.randomInt(256)}.${crypto.randomInt(256)}.${crypto.randomInt(1, 255)}`,
    },
    body: JSON.stringify({ type: 'search', query: searchText(words), found: crypto.randomInt(5) }),
  });

/**
 * A visitor's support request, with a small file uploaded first when `withFile`. A 201 carries the ticket's id:
 * an acknowledged write, which must be in the database at the end.
 */
export async function supportRequest(base: string, n: number, withFile: boolean): Promise<Outcome> {
  let cookie = '';
  const files: number[] = [];
  if (withFile) {
    const form = new FormData();
    form.append(
      'file[]',
      new Blob([crypto.randomBytes(512 + Math.floor(Math.random() * 8192))]),
      `log-${n}.txt`,
    );
    const upload = await call(`${base}/api/file`, { method: 'POST', body: form });
    if (upload.status !== 200) return upload;
    files.push(...(upload.body as { id: number }[]).map((f) => f.id));
    // The upload belongs to the visitor's cookie; the request must carry it.
    cookie = upload.cookie ?? '';
  }
  const sent = await call(`${base}/panel/api/issue-open`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
    body: JSON.stringify({
      title: `Bench request ${n}`,
      description: `The display shows E${n % 100}`,
      channel: 'web',
      name: 'Bench',
      email: 'bench@example.com',
      files,
      g_recaptcha_response: '',
    }),
  });
  if (sent.status === 201) return { status: 201, ticketId: (sent.body as { data: { id: number } }).data.id };
  return sent;
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}
