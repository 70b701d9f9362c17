import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VIDEO_EMBEDS } from '../src/server/html/sanitize.ts';
import { buildUser, DEFAULT_PASSWORD } from '../src/server/testing/factories.ts';
import type { Category, Instruction } from '../src/shared/api/knowledge.ts';
import { href } from '../src/shared/paths.ts';
import { outlineArticle } from '../src/web/lib/article-outline.ts';
import { boxTables } from '../src/web/lib/box-tables.ts';
import { createTranslator } from '../src/web/i18n/i18n.tsx';
import { CHROMIUM, CHROMIUM_FLAGS, gotoHydrated } from './support/browser.ts';
import { startServer, type RunningServer } from './support/server.ts';
import { XSS_PAYLOADS, type XssPayload } from '../src/server/testing/xss-corpus.ts';

/**
 * Every payload of the XSS corpora (test-data/xss: DOMPurify's fixtures and the html5sec vectors), each stored on
 * its own through the admin API as an article body and as a category description. What the public API gives back
 * is parsed by Chromium and must hold no event handler, script, foreign frame or script-bearing URL, and must be
 * what the page shows; each article page and category page is rendered while it holds that one payload, every
 * element of the stored HTML is sent every event a handler could wait for, and nothing may run. alert, confirm, prompt and print are wrapped before any page script, so a call shows as
 * a console line and a request to /xss-marker even where a dialog would not open; the pages' Content-Security-Policy
 * would refuse an inline handler, so its violation reports count as a failure too. Then the ordinary screens must
 * load under that policy without a single violation.
 */

type Payload = XssPayload;

const PAYLOADS = XSS_PAYLOADS;
/** Pages rendered side by side, each in its own tab of one browser context (two to four do the same on two cores). */
const TABS = 3;
/** How long a rendered page may take to show a late effect (timers, lazy loads) before the next one replaces it. */
const SETTLE_MS = 60;
const MARK = 7_000_000;
/**
 * Every write here changes the content, so every answer after it is a fresh one, which the server would also
 * compress with brotli for a client that takes it, which was half of what the test server spent its time on.
 */
const UNCOMPRESSED = { 'accept-encoding': 'identity' };
// A 1x1 transparent PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/** Runs in every frame before the page's own scripts: a payload that gets to call one of these is seen. */
const WATCH = `
for (const name of ['alert', 'confirm', 'prompt', 'print']) {
  window[name] = (...args) => {
    console.log('XSS-RAN ' + name + ' ' + args.join(' '));
    try { navigator.sendBeacon('/xss-marker?' + name + '=' + args.join(',')); } catch {}
  };
}
document.addEventListener('securitypolicyviolation', (event) =>
  console.log('CSP-VIOLATION ' + event.violatedDirective + ' ' + event.blockedURI));
`;

/**
 * Events dispatched on every element of the stored HTML. In the page this list is joined by every `on…` handler
 * property Chromium knows, so a handler for an event named nowhere here is prodded too.
 */
const EVENTS = [
  'click',
  'dblclick',
  'auxclick',
  'contextmenu',
  'mouseover',
  'mouseenter',
  'mouseout',
  'mouseleave',
  'mousemove',
  'mousedown',
  'mouseup',
  'pointerover',
  'pointerenter',
  'pointerdown',
  'pointerup',
  'pointermove',
  'touchstart',
  'focus',
  'focusin',
  'focusout',
  'blur',
  'keydown',
  'keypress',
  'keyup',
  'beforeinput',
  'input',
  'change',
  'select',
  'submit',
  'invalid',
  'toggle',
  'beforetoggle',
  'load',
  'error',
  'scroll',
  'scrollend',
  'wheel',
  'drag',
  'dragstart',
  'dragenter',
  'dragover',
  'drop',
  'animationstart',
  'animationiteration',
  'animationend',
  'transitionrun',
  'transitionstart',
  'transitionend',
  'copy',
  'cut',
  'paste',
  'play',
  'loadstart',
  'begin',
  'end',
  'repeat',
];

type Embeds = ReadonlyArray<{ host: string; path: string }>;

/**
 * What in the tree under `root` could run script or load a page that does. Runs in Chromium (serialised by its
 * source, so it uses nothing from outside).
 */
function findDangers(root: ParentNode, embeds: Embeds): string[] {
  // Each runs or loads code, or changes how the page's own URLs and scripts behave.
  const bannedElements = new Set([
    'script',
    'object',
    'embed',
    'applet',
    'frame',
    'frameset',
    'base',
    'meta',
    'link',
  ]);
  const urlAttributes = new Set([
    'href',
    'xlink:href',
    'src',
    'srcset',
    'action',
    'formaction',
    'poster',
    'data',
    'cite',
    'background',
    'lowsrc',
    'dynsrc',
    'ping',
    'codebase',
    'longdesc',
    // SVG animation can set a link's href to one of these.
    'to',
    'from',
    'by',
    'values',
  ]);
  // As a browser reads a URL: controls and spaces around it and tabs and newlines inside do not count.
  const dangerousUrl = (raw: string) => {
    const url = [...raw]
      .filter((c) => c.charCodeAt(0) > 0x20)
      .join('')
      .toLowerCase();
    return (
      /^(javascript|vbscript):/.test(url) ||
      (url.startsWith('data:') && !/^data:image\/(png|gif|jpeg|webp|avif)[;,]/.test(url))
    );
  };
  const found: string[] = [];
  const visit = (parent: ParentNode) => {
    for (const element of parent.querySelectorAll('*')) {
      const name = element.localName;
      if (bannedElements.has(name)) found.push(`<${name}>`);
      if (name === 'template') visit((element as HTMLTemplateElement).content);
      if (name === 'iframe') {
        let src: URL | null = null;
        try {
          src = new URL(element.getAttribute('src') ?? '');
        } catch {
          // No usable src: reported below.
        }
        const allowed =
          src !== null &&
          src.protocol === 'https:' &&
          embeds.some((e) => e.host === src.hostname && src.pathname.startsWith(e.path)) &&
          element.hasAttribute('sandbox') &&
          !element.hasAttribute('srcdoc');
        if (!allowed) found.push(`<iframe src="${element.getAttribute('src')}">`);
      }
      for (const { name: attribute, value } of element.attributes) {
        const key = attribute.toLowerCase();
        if (key.startsWith('on')) found.push(`${key} on <${name}>`);
        if (!urlAttributes.has(key)) continue;
        const urls =
          key === 'srcset' || key === 'ping'
            ? value.split(/[\s,]+/)
            : key === 'values'
              ? value.split(';')
              : [value];
        if (urls.some(dangerousUrl)) found.push(`${key}="${value}" on <${name}>`);
      }
    }
  };
  visit(root);
  return found;
}

/** Runs in Chromium: each fragment parsed as a <div>'s content in an inert document (nothing loads or runs). */
function inspectFragments(
  { fragments, embeds }: { fragments: string[]; embeds: Embeds },
  find: typeof findDangers,
) {
  const inert = document.implementation.createHTMLDocument('');
  return fragments.map((html) => {
    const div = inert.createElement('div');
    div.innerHTML = html;
    return { dangers: find(div, embeds), normalised: div.innerHTML };
  });
}

/**
 * Runs in a rendered page: waits for it to load and hydrate, checks the stored HTML as the page parsed it, sends
 * each of its elements every event, and gives late effects `settleMs` to show. The events are plain `Event`s that
 * do not bubble: a handler on the element runs all the same, but a `click` follows no link and the page's own
 * listeners on window are left alone. All in one call: each round trip to the browser costs more than the work.
 */
async function prodStored(
  { events, embeds, settleMs }: { events: string[]; embeds: Embeds; settleMs: number },
  find: typeof findDangers,
) {
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const root = document.documentElement;
  const ready = () => document.readyState === 'complete' && root.hasAttribute('data-hydrated');
  for (const deadline = performance.now() + 10_000; !ready() && performance.now() < deadline;)
    await pause(10);
  const roots = [...document.querySelectorAll('.rich-text, .snippet')];
  const html = roots.map((element) => element.innerHTML);
  const dangers = roots.flatMap((element) => find(element, embeds));
  const types = new Set(events);
  for (const key in HTMLElement.prototype) if (key.startsWith('on')) types.add(key.slice(2));
  const elements = roots.flatMap((element) => [element, ...element.querySelectorAll('*')]);
  for (const element of elements) {
    for (const type of types) element.dispatchEvent(new Event(type, { cancelable: true }));
  }
  await pause(settleMs);
  return { hydrated: root.hasAttribute('data-hydrated'), html, dangers, events: [...types] };
}

/** Calls `fn(arg, findDangers)` in the page; both go over as source, so the page's CSP does not apply. */
const inPage = <A, R>(page: Page, fn: (arg: A, find: typeof findDangers) => R, arg: A): Promise<R> =>
  page.evaluate(`(${fn.toString()})(${JSON.stringify(arg)}, ${findDangers.toString()})`) as Promise<R>;

interface Watch {
  page: Page;
  ran: string[];
  violations: string[];
}

let server: RunningServer;
let browser: Browser;
let token: string;

/** A browser context whose tabs see every payload call. */
async function watchedContext(options: { bypassCSP?: boolean } = {}): Promise<BrowserContext> {
  const context = await browser.newContext({ ...options, extraHTTPHeaders: UNCOMPRESSED });
  await context.addInitScript(WATCH);
  return context;
}

async function watchedPage(context: BrowserContext): Promise<Watch> {
  const page = await context.newPage();
  const watch: Watch = { page, ran: [], violations: [] };
  page.on('dialog', (dialog) => {
    watch.ran.push(`dialog ${dialog.type()} ${dialog.message()}`);
    void dialog.dismiss();
  });
  page.on('console', (message) => {
    const text = message.text();
    if (text.startsWith('XSS-RAN')) watch.ran.push(text);
    if (text.startsWith('CSP-VIOLATION') || text.includes('Refused to')) watch.violations.push(text);
  });
  page.on('request', (request) => {
    if (request.url().includes('/xss-marker')) watch.ran.push(`request ${request.url()}`);
  });
  return watch;
}

/** Checks that a payload with NUL is refused as a body and as a description, naming the field; answers it without. */
async function refusedWithNul(
  slot: { articleId: number; categoryId: number },
  payload: string,
): Promise<string> {
  const tries = [
    [`/api/admin/articles/${slot.articleId}`, 'body_html'],
    [`/api/admin/categories/${slot.categoryId}`, 'description'],
  ] as const;
  for (const [path, field] of tries) {
    const refusal = await api('PATCH', path, { [field]: payload }).then(
      () => 'stored',
      (error: Error) => error.message,
    );
    expect(refusal).toContain(': 400 ');
    expect(refusal).toContain(`"field":"${field}"`);
  }
  return payload.replaceAll('\u0000', '\ufffd');
}

async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      'x-auth-token': token,
      ...UNCOMPRESSED,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return JSON.parse(text) as T;
}

interface Slot {
  articleId: number;
  categoryId: number;
  /** A word of the article's title only: searching for it shows the start of whatever the body holds. */
  word: string;
}

/** A public page's verdict on the payload it shows. */
interface Rendered {
  label: string;
  problems: string[];
  /** The stored HTML as the page's document holds it. */
  html: string;
}

/** Renders a page in the watched tab, prods the stored HTML on it, and says what went wrong. */
const en = createTranslator('en');

async function renderStored(watch: Watch, path: string, label: string): Promise<Rendered> {
  const problems: string[] = [];
  const response = await watch.page.goto(`${server.url}${path}`, { waitUntil: 'domcontentloaded' });
  const policy = response?.headers()['content-security-policy'] ?? '';
  if (response?.status() !== 200) problems.push(`status ${response?.status()}`);
  if (!policy.includes("object-src 'none'") || !policy.includes("base-uri 'none'"))
    problems.push(`CSP ${policy}`);
  if (policy.includes("'unsafe-inline'")) problems.push(`CSP ${policy}`);
  if (response?.headers()['x-content-type-options'] !== 'nosniff') problems.push('no nosniff');
  let html = '';
  try {
    const found = await inPage(watch.page, prodStored, {
      events: EVENTS,
      embeds: VIDEO_EMBEDS,
      settleMs: SETTLE_MS,
    });
    // A payload may break the page's own script, so that it never hydrates.
    if (!found.hydrated) problems.push('never hydrated');
    problems.push(...found.dangers.map((danger) => `on the page: ${danger}`));
    html = found.html.join('');
  } catch (error) {
    problems.push(`left the page: ${String(error)}`);
  }
  problems.push(...watch.ran.splice(0).map((ran) => `ran: ${ran}`));
  problems.push(...watch.violations.splice(0).map((violation) => `CSP: ${violation}`));
  return { label, problems, html };
}

interface StoredHtml {
  label: string;
  html: string;
  /** What the page adds to it, and nothing else: heading ids and anchors on articles, boxes around tables. */
  expected: string;
  /** The same as its page's document holds it: checked against `html` once Chromium has parsed both. */
  shown?: string;
}

const slots: Slot[] = [];

beforeAll(async () => {
  server = await startServer();
  // The network here is closed: other hosts fail to resolve at once rather than time out. (Not by routing
  // requests, which would turn off the HTTP cache and have each of the 700 pages fetch the client again.)
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [...CHROMIUM_FLAGS, '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1'],
  });
  const admin = await buildUser(server.ctx.db, { role: 'admin' });
  const login = await fetch(`${server.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: admin.email, password: DEFAULT_PASSWORD }),
  });
  token = ((await login.json()) as { token: string }).token;

  // One category with one article per tab, payloads written into them in turn. Pages stay as small as a real
  // help centre's (hundreds of categories at once would make every page carry them all), and with more than one category
  // in the section a category page shows itself rather than leading on to its only article.
  const section = await api<{ id: number }>('POST', '/api/admin/sections', { name: 'XSS corpus' });
  for (let n = 0; n < Math.max(TABS, 2); n++) {
    const word = `xssslot${String.fromCharCode(97 + n)}`;
    const category = await api<{ id: number }>('POST', '/api/admin/categories', {
      section_id: section.id,
      name: `XSS category ${n + 1}`,
    });
    const article = await api<{ id: number }>('POST', '/api/admin/articles', {
      section_id: section.id,
      category_id: category.id,
      title: `XSS article ${word}`,
      body_html: '<p>Nothing yet</p>',
      published: true,
    });
    slots.push({ articleId: article.id, categoryId: category.id, word });
  }
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('stored XSS payloads', () => {
  it(`keeps and runs nothing of the ${PAYLOADS.length} payloads, each stored alone as a body and as a description`, async () => {
    const context = await watchedContext();
    /** What the public API gave back for each payload: its article's body, then its category's description. */
    const stored: StoredHtml[] = [];
    const rendered: Rendered[] = [];
    const renderedFragments = new Set<string>();
    let next = 0;
    await Promise.all(
      slots.slice(0, TABS).map(async (slot) => {
        const watch = await watchedPage(context);
        for (let n = next++; n < PAYLOADS.length; n = next++) {
          const { id, payload: sent } = PAYLOADS[n] as Payload;
          // NUL is refused in every field (PostgreSQL cannot store it); the rest of such a payload is stored with
          // NUL as the HTML parser reads it, U+FFFD.
          const payload = sent.includes('\u0000') ? await refusedWithNul(slot, sent) : sent;
          await Promise.all([
            api('PATCH', `/api/admin/articles/${slot.articleId}`, { body_html: payload }),
            api('PATCH', `/api/admin/categories/${slot.categoryId}`, { description: payload }),
          ]);
          const [article, categories] = await Promise.all([
            api<Instruction>('GET', href.instructionApi(slot.articleId)),
            api<{ items: Category[] }>('GET', '/api/knowledge/category'),
          ]);
          const category = categories.items.find((c) => c.id === slot.categoryId);
          const body: StoredHtml = {
            label: `#${n} ${id} article body`,
            html: article.description,
            expected: boxTables(
              outlineArticle(article.description, (title) => en('copyLinkToSection', { title })).html,
            ),
          };
          const description: StoredHtml = {
            label: `#${n} ${id} category description`,
            html: category?.description ?? '',
            expected: boxTables(category?.description ?? ''),
          };
          stored.push(body, description);
          if (!category)
            rendered.push({ label: description.label, problems: ['category not public'], html: '' });
          for (const [page, path, kind] of [
            [body, href.instruction(slot.articleId), 'article'],
            [description, href.category(slot.categoryId), 'category'],
          ] as const) {
            // Most payloads come out the same (most of them empty): the same stored HTML makes the same page, so
            // each page is rendered once for each distinct fragment it holds. Every payload is still stored and
            // checked below on its own.
            const key = `${kind}\u0000${page.html}`;
            if (renderedFragments.has(key)) continue;
            renderedFragments.add(key);
            const result = await renderStored(watch, path, page.label);
            rendered.push(result);
            page.shown = result.html;
          }
        }
        await watch.page.waitForTimeout(SETTLE_MS);
        const late = [...watch.ran.splice(0), ...watch.violations.splice(0)];
        if (late.length > 0)
          rendered.push({ label: 'after the last page of a tab', problems: late, html: '' });
      }),
    );
    // The pages around them, with the last payloads still stored: tiles, and search snippets of the bodies.
    const watch = await watchedPage(context);
    for (const path of [href.home(), ...slots.map((s) => href.search(s.word))])
      rendered.push(await renderStored(watch, path, path));
    await context.close();

    expect(stored).toHaveLength(PAYLOADS.length * 2);
    const scratch = await browser.newContext();
    const inspected = await inPage(await scratch.newPage(), inspectFragments, {
      fragments: stored.map((s) => s.html),
      embeds: VIDEO_EMBEDS,
    });
    await scratch.close();
    const questionable = stored
      .map((s, n) => ({ ...s, ...(inspected[n] as (typeof inspected)[number]) }))
      .filter((s) => s.dangers.length > 0)
      .map(({ label, html, dangers }) => ({ label, html, dangers }));
    expect.soft(questionable, 'stored HTML with a handler, script, foreign frame or script URL').toEqual([]);
    // The page shows the stored HTML with only the site's own additions, once Chromium has parsed both.
    const scratchForShown = await browser.newContext();
    const expectedShown = await inPage(await scratchForShown.newPage(), inspectFragments, {
      fragments: stored.map((s) => s.expected),
      embeds: VIDEO_EMBEDS,
    });
    await scratchForShown.close();
    const mismatched = stored
      .map((s, n) => ({ ...s, normalised: (expectedShown[n] as (typeof expectedShown)[number]).normalised }))
      .filter((s) => s.shown !== undefined && s.shown !== s.normalised);
    expect.soft(mismatched, 'pages that show other than the stored HTML').toEqual([]);
    expect(rendered.filter((r) => r.problems.length > 0)).toEqual([]);
  }, 360_000);

  it('notices a payload that runs, on a click as on any other event (the watch works)', async () => {
    const control = `<b id="xss-control" onclick="alert(${MARK})">control</b>`;
    const path = href.instruction((slots[0] as Slot).articleId);
    // The checker finds what the sanitiser must remove.
    const scratch = await browser.newContext();
    const [checked] = await inPage(await scratch.newPage(), inspectFragments, {
      fragments: [
        `${control}<a href=" java&#x09;script:alert(1)">a</a><img srcset="a.png 1x, data:text/html,x 2x">` +
          '<iframe src="https://evil.example/embed/x" sandbox></iframe><svg><a xlink:href="vbscript:x"></a><script></script></svg>',
      ],
      embeds: VIDEO_EMBEDS,
    });
    expect(checked?.dangers).toEqual([
      'onclick on <b>',
      'href=" java\tscript:alert(1)" on <a>',
      'srcset="a.png 1x, data:text/html,x 2x" on <img>',
      '<iframe src="https://evil.example/embed/x">',
      'xlink:href="vbscript:x" on <a>',
      '<script>',
    ]);
    await scratch.close();

    // Not stored: written into the page, as a sanitiser that let it through would have. Without the page's policy,
    // the handler runs, on a click only, and the watch sees it.
    const open = await watchedContext({ bypassCSP: true });
    const watch = await watchedPage(open);
    await gotoHydrated(watch.page, `${server.url}${path}`);
    await watch.page.evaluate((html) => {
      document.querySelector('.rich-text')?.insertAdjacentHTML('beforeend', html);
    }, control);
    await watch.page.waitForTimeout(200);
    expect(watch.ran).toEqual([]);
    const prodded = await inPage(watch.page, prodStored, {
      events: EVENTS,
      embeds: VIDEO_EMBEDS,
      settleMs: 0,
    });
    expect(prodded.events).toContain('click');
    expect(prodded.dangers).toContain('onclick on <b>');
    await expect
      .poll(() => watch.ran)
      .toEqual([`XSS-RAN alert ${MARK}`, `request ${server.url}/xss-marker?alert=${MARK}`]);
    await open.close();

    // Under the policy the same handler is refused, and the refusal is reported.
    const closed = await watchedContext();
    const guarded = await watchedPage(closed);
    await gotoHydrated(guarded.page, `${server.url}${path}`);
    await guarded.page.evaluate((html) => {
      document.querySelector('.rich-text')?.insertAdjacentHTML('beforeend', html);
    }, control);
    await inPage(guarded.page, prodStored, { events: EVENTS, embeds: VIDEO_EMBEDS, settleMs: 0 });
    await expect.poll(() => guarded.violations.length).toBeGreaterThan(0);
    expect(guarded.ran).toEqual([]);
    // And a call that does get to run is seen as a console line and a marker request.
    await guarded.page.evaluate((mark) => {
      (window as unknown as { alert: (...args: unknown[]) => void }).alert(mark, 1);
    }, MARK);
    await expect.poll(() => guarded.ran.length).toBeGreaterThanOrEqual(2);
    expect(guarded.ran[0]).toBe(`XSS-RAN alert ${MARK} 1`);
    await closed.close();
  });
});

describe('the ordinary site under its Content-Security-Policy', () => {
  it('loads home, category, article and search with no violation, the branded header included', async () => {
    // A branded header: its background is a style attribute, which the policy allows by its hash only.
    const form = new FormData();
    form.append('file', new Blob([PNG], { type: 'image/png' }), 'header-background.png');
    const uploaded = await fetch(`${server.url}/api/admin/files`, {
      method: 'POST',
      headers: { 'x-auth-token': token },
      body: form,
    });
    expect(uploaded.status).toBe(201);
    const background = ((await uploaded.json()) as { items: { id: number; url: string }[] }).items[0];
    await api('PATCH', '/api/admin/branding', { background_file_id: background?.id });
    const categories = (
      (await (await fetch(`${server.url}/api/knowledge/category`)).json()) as {
        items: { id: number; name: string }[];
      }
    ).items;
    const articles = (
      (await (await fetch(`${server.url}/api/knowledge/instruction`)).json()) as {
        items: { id: number }[];
      }
    ).items;
    const demoCategory = categories.find((c) => !c.name.startsWith('XSS'));
    const demoArticle = articles[3];
    const context = await watchedContext();
    const watch = await watchedPage(context);
    for (const path of [
      '/knowledge/',
      `/knowledge/category/${demoCategory?.id}`,
      `/knowledge/instruction/${demoArticle?.id}`,
      '/knowledge/search?query=wifi',
    ]) {
      await gotoHydrated(watch.page, `${server.url}${path}`);
      // The header's background is a style attribute: allowed by its hash, so the browser applied it.
      const backgroundImage = await watch.page.evaluate(
        () => getComputedStyle(document.querySelector('.site-header') as Element).backgroundImage,
      );
      expect(backgroundImage, path).toContain(background?.url);
      await watch.page.waitForTimeout(100);
      expect(watch.violations, path).toEqual([]);
    }
    // Client-side navigation and the search box work too (scripts from 'self' only, fetch to 'self').
    await gotoHydrated(watch.page, `${server.url}/knowledge/`);
    await watch.page.getByRole('combobox').fill('heating');
    await watch.page.getByRole('option').first().waitFor();
    expect(watch.violations).toEqual([]);
    expect(watch.ran).toEqual([]);
    await context.close();
  });
});
