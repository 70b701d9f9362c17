import { describe, expect, it } from 'vitest';
import {
  capNesting,
  ID_PREFIX,
  NESTING_LIMIT,
  safeSrcset,
  safeUrl,
  sanitizeArticleHtml,
  videoEmbedUrl,
} from './sanitize.ts';
import { XSS_PAYLOADS } from '../testing/xss-corpus.ts';

const PAYLOADS = XSS_PAYLOADS;

/** What may appear in stored HTML at all (the sanitiser's allowlist, written out again on purpose). */
const ALLOWED_TAGS = new Set(
  (
    'h1 h2 h3 h4 h5 h6 p br hr div span ul ol li dl dt dd blockquote pre code kbd samp var em strong b i u s del ins ' +
    'sub sup mark small abbr q cite a img figure figcaption picture source table caption colgroup col thead tbody ' +
    'tfoot tr th td details summary iframe'
  ).split(' '),
);
const URL_ATTRIBUTES = new Set([
  'href',
  'src',
  'srcset',
  'action',
  'formaction',
  'xlink:href',
  'poster',
  'data',
]);
const VOID = new Set(['img', 'br', 'hr', 'source', 'col']);

interface Tag {
  name: string;
  closing: boolean;
  attributes: [string, string][];
}

const decode = (value: string) =>
  value
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)))
    .replace(/&amp;/g, '&');

/**
 * The tags of sanitised output, read strictly: the sanitiser writes every `<` of text as `&lt;` and every attribute
 * as name="value", so anything else at a `<` fails the test.
 */
function tagsOf(html: string): Tag[] {
  const tags: Tag[] = [];
  const tag = /<(\/?)([a-z][a-z0-9-]*)((?:\s+[a-z][a-z0-9_:.-]*(?:="[^"<>]*")?)*)\s*\/?>/y;
  for (let at = html.indexOf('<'); at !== -1; at = html.indexOf('<', at + 1)) {
    tag.lastIndex = at;
    const match = tag.exec(html);
    if (!match) throw new Error(`unexpected markup at ${at}: ${html.slice(at, at + 60)}`);
    const attributes = [...(match[3] ?? '').matchAll(/([a-z][a-z0-9_:.-]*)(?:="([^"]*)")?/g)].map(
      (a) => [a[1] as string, decode(a[2] ?? '')] as [string, string],
    );
    tags.push({ name: match[2] as string, closing: match[1] === '/', attributes });
  }
  return tags;
}

/** The deepest nesting of elements in sanitised output. */
function depthOf(html: string): number {
  let depth = 0;
  let deepest = 0;
  for (const tag of tagsOf(html)) {
    if (VOID.has(tag.name)) continue;
    depth += tag.closing ? -1 : 1;
    deepest = Math.max(deepest, depth);
  }
  return deepest;
}

/** Every rule stored HTML must keep, whatever went in. */
function expectSafe(output: string, label: string) {
  for (const tag of tagsOf(output)) {
    expect(ALLOWED_TAGS.has(tag.name), `${label}: <${tag.name}>`).toBe(true);
    for (const [name, value] of tag.attributes) {
      expect(name, `${label}: <${tag.name} ${name}>`).not.toMatch(/^on/);
      expect(name, label).not.toBe('style');
      expect(name, label).not.toBe('srcdoc');
      expect(name, label).not.toBe('name');
      if (name === 'id') expect(value.startsWith(ID_PREFIX), `${label}: id=${value}`).toBe(true);
      if (URL_ATTRIBUTES.has(name)) {
        // What a browser would read, with the characters it ignores taken out.
        const url = value.replace(/[\p{Cc}\p{Cf}\p{Z}]/gu, '');
        expect(url, `${label}: ${name}=${value}`).not.toMatch(
          /^(javascript|vbscript|data|livescript|mhtml|view-source):/i,
        );
        expect(url, `${label}: ${name}=${value}`).not.toMatch(/(^|,\s*)(javascript|vbscript|data):/i);
        expect(url, `${label}: ${name}=${value}`).not.toMatch(/^[/\\]{2}/);
      }
    }
  }
  expect(output, label).not.toMatch(
    /<(script|style|form|meta|base|object|embed|svg|math|link|input|button|textarea|select|template|noscript|frame|frameset)\b/i,
  );
  expect(output, label).not.toContain('<!--');
  expect(output, label).not.toContain('<![CDATA[');
  expect(sanitizeArticleHtml(output), `${label}: sanitising twice`).toBe(output);
}

describe('sanitizeArticleHtml against the XSS corpora', () => {
  it('has the corpora (DOMPurify fixtures and html5sec vectors)', () => {
    expect(PAYLOADS.filter((p) => p.id.startsWith('dompurify-')).length).toBeGreaterThanOrEqual(200);
    // 133 vectors as written, and 6 with slots for a character tried with each of 12.
    expect(PAYLOADS.filter((p) => p.id.startsWith('h5sc-')).length).toBe(133 + 6 * 12);
    expect(PAYLOADS.some((p) => p.id.startsWith('h5sc-') && /\[[a-e]\]/.test(p.payload))).toBe(false);
    expect(new Set(PAYLOADS.map((p) => p.id)).size).toBe(PAYLOADS.length);
  });

  it.each(PAYLOADS.map((p) => [p.id, p.payload] as const))('%s leaves nothing that runs', (id, payload) => {
    expectSafe(sanitizeArticleHtml(payload), id);
  });

  it('also leaves nothing when every payload is stored at once', () => {
    expectSafe(sanitizeArticleHtml(PAYLOADS.map((p) => p.payload).join('\n')), 'all payloads');
  });

  it('leaves nothing in pieces of payloads spliced together', () => {
    // A fixed pseudo-random sequence, so a failure names a case that can be run again.
    let seed = 20_241_122;
    const random = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % n;
    };
    for (let round = 0; round < 400; round++) {
      const a = PAYLOADS[random(PAYLOADS.length)]?.payload ?? '';
      const b = PAYLOADS[random(PAYLOADS.length)]?.payload ?? '';
      const spliced = a.slice(0, random(a.length + 1)) + b.slice(random(b.length + 1));
      expectSafe(sanitizeArticleHtml(spliced), `round ${round}: ${JSON.stringify(spliced.slice(0, 120))}`);
    }
  });
});

describe('sanitizeArticleHtml keeps what help articles need', () => {
  const keeps = (html: string, expected = html) => {
    const output = sanitizeArticleHtml(html);
    expect(output).toBe(expected);
    expectSafe(output, html);
  };

  it('keeps text structure, tables, code blocks and callouts', () => {
    keeps(
      '<h2>Set up</h2><p>Press <kbd>Ctrl</kbd> + <kbd>S</kbd>, <em>then</em> <strong>wait</strong>.</p>' +
        '<ul><li>one</li><li>two<ol start="3" reversed=""><li>three</li></ol></li></ul>',
    );
    keeps(
      '<table class="table-striped"><caption>Plans</caption><colgroup><col span="2" /></colgroup>' +
        '<thead><tr><th scope="col">Plan</th><th colspan="2">Price</th></tr></thead>' +
        '<tbody><tr><td rowspan="2" align="left">Basic</td><td>1</td></tr></tbody></table>',
    );
    keeps(
      '<pre class="language-bash"><code class="language-bash">echo "&lt;hi&gt;" &amp;&amp; exit</code></pre>',
    );
    keeps('<div class="callout callout-warning"><p>Back up first.</p></div>');
    keeps('<details open=""><summary>More</summary><p>Hidden text</p></details>');
    keeps('<blockquote><p>Quote <q>inner</q> <cite>Someone</cite></p></blockquote><p>a<br />b</p><hr />');
  });

  it('keeps images, with lazy loading, and pictures with their sources', () => {
    keeps(
      '<img src="/files/12/screen.png" alt="The screen" width="640" height="480" />',
      '<img src="/files/12/screen.png" alt="The screen" width="640" height="480" loading="lazy" />',
    );
    keeps(
      '<img src="https://cdn.example.com/a.png" alt="" />',
      '<img src="https://cdn.example.com/a.png" alt="" loading="lazy" />',
    );
    keeps(
      '<picture><source srcset="/a.webp 1x, /a@2x.webp 2x" type="image/webp" /><img src="/a.png" alt="A" /></picture>',
      '<picture><source srcset="/a.webp 1x, /a@2x.webp 2x" type="image/webp" /><img src="/a.png" alt="A" loading="lazy" /></picture>',
    );
    keeps('<figure><img src="a.png" alt="x" loading="lazy" /><figcaption>Caption</figcaption></figure>');
  });

  it('keeps a YouTube or Vimeo frame, with our sandbox and nothing else of the author', () => {
    const frame = sanitizeArticleHtml(
      '<iframe src="https://www.youtube.com/embed/dQw4w9WgXcQ?start=10" width="560" height="315" title="Intro" ' +
        'allowfullscreen sandbox="allow-top-navigation allow-scripts" srcdoc="<b>x</b>" allow="camera" name="x"></iframe>',
    );
    expect(frame).toBe(
      '<iframe src="https://www.youtube.com/embed/dQw4w9WgXcQ?start=10" width="560" height="315" title="Intro" ' +
        'allowfullscreen="" allow="encrypted-media; picture-in-picture; fullscreen" ' +
        'sandbox="allow-scripts allow-same-origin allow-presentation allow-popups allow-popups-to-escape-sandbox" ' +
        'referrerpolicy="strict-origin-when-cross-origin" loading="lazy"></iframe>',
    );
    expectSafe(frame, 'youtube');
    expect(sanitizeArticleHtml('<iframe src="https://player.vimeo.com/video/76979871"></iframe>')).toContain(
      'src="https://player.vimeo.com/video/76979871"',
    );
    expect(sanitizeArticleHtml('<iframe src="https://youtube.com/embed/x"></iframe>')).toContain(
      'src="https://www.youtube.com/embed/x"',
    );
    expect(sanitizeArticleHtml('<iframe src="https://www.youtube-nocookie.com/embed/x"></iframe>')).toContain(
      'src="https://www.youtube-nocookie.com/embed/x"',
    );
  });

  it('keeps relative, http(s), mailto and tel links; a new window gets noopener', () => {
    keeps('<a href="/knowledge/instruction/3">Next</a> <a href="../b.html">B</a> <a href="?q=1">Q</a>');
    keeps('<a href="mailto:help@example.com">Mail</a> <a href="tel:+441234567">Call</a>');
    keeps(
      '<a href="https://example.com/a?b=1&amp;c=2" target="_blank" rel="opener">Out</a>',
      '<a href="https://example.com/a?b=1&amp;c=2" target="_blank" rel="noopener noreferrer">Out</a>',
    );
    keeps(
      '<a href="http://example.com" target="_top" rel="prefetch">x</a>',
      '<a href="http://example.com">x</a>',
    );
  });

  it('prefixes ids and the fragments that point at them', () => {
    keeps(
      '<h2 id="install">Install</h2><a href="#install">up</a><a href="/knowledge/instruction/3#setup">there</a>',
      '<h2 id="user-content-install">Install</h2><a href="#user-content-install">up</a>' +
        '<a href="/knowledge/instruction/3#user-content-setup">there</a>',
    );
    keeps('<a name="old">anchor</a>', '<a id="user-content-old">anchor</a>');
    keeps(
      '<p id="__proto__">x</p><p id="a b">y</p><img id="cookie" name="cookie" src="a.png" />',
      '<p id="user-content-__proto__">x</p><p>y</p><img id="user-content-cookie" src="a.png" loading="lazy" />',
    );
    keeps('<a href="https://example.com/#top">x</a>');
  });
});

describe('sanitizeArticleHtml takes out what the issue lists', () => {
  const cleaned = (html: string) => {
    const output = sanitizeArticleHtml(html);
    expectSafe(output, html);
    return output;
  };

  it('drops javascript:, vbscript: and data: in every URL attribute, however it is spelled', () => {
    for (const href of [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      ' javascript:alert(1)',
      'java\tscript:alert(1)',
      'java&#x0A;script:alert(1)',
      '&#x2028;javascript:alert(1)',
      '\u00a0javascript:alert(1)',
      '\u200bjavascript:alert(1)',
      '\ufeffjavascript:alert(1)',
      'jav&#x61;script:alert(1)',
      'javascript&colon;alert(1)',
      'vbscript:msgbox(1)',
      'data:text/html,<script>alert(1)</script>',
      'DATA:image/svg+xml;base64,PHN2Zz4=',
    ]) {
      expect(cleaned(`<a href="${href}">x</a>`), href).toBe('<a>x</a>');
      expect(cleaned(`<img src="${href}" alt="a">`), href).toBe('');
      expect(cleaned(`<img src="/ok.png" srcset="${href} 2x">`), href).toBe(
        '<img src="/ok.png" loading="lazy" />',
      );
      expect(cleaned(`<iframe src="${href}"></iframe>`), href).toBe('');
    }
    expect(
      cleaned('<img src="/a.png" srcset="/b.png 1x, data:image/png;base64,AA 2x, javascript:x 3x">'),
    ).toBe('<img src="/a.png" srcset="/b.png 1x" loading="lazy" />');
  });

  it('drops protocol-relative links and backslash tricks', () => {
    for (const href of [
      '//evil.example',
      '\\\\evil.example',
      '/\\evil.example',
      '\\/evil.example',
      ' //evil.example',
      '/\t/evil.example',
    ]) {
      expect(cleaned(`<a href="${href}">x</a>`), href).toBe('<a>x</a>');
      expect(cleaned(`<img src="${href}/a.png">`), href).toBe('');
    }
  });

  it('drops frames from other hosts, other schemes and other paths', () => {
    for (const src of [
      'http://www.youtube.com/embed/x',
      'https://www.youtube.com/watch?v=x',
      'https://www.youtube.com.evil.example/embed/x',
      'https://evil.example/embed/x',
      'https://www.youtube.com@evil.example/embed/x',
      'https://www.youtube.com:444/embed/x',
      '//www.youtube.com/embed/x',
      '/embed/x',
      'https://player.vimeo.com/',
    ]) {
      expect(cleaned(`<iframe src="${src}"></iframe>after`), src).toBe('after');
    }
    expect(cleaned('<iframe srcdoc="<script>alert(1)</script>"></iframe>')).toBe('');
    expect(
      cleaned('<iframe src="https://www.youtube.com/embed/x"><img src=x onerror=alert(1)>text</iframe>'),
    ).not.toMatch(/img|text/);
    const nested = cleaned(
      '<iframe src="https://www.youtube.com/embed/x"><iframe src="https://www.youtube.com/embed/y">in</iframe>more</iframe>after',
    );
    // A frame's content is raw text up to the first </iframe>, as browsers parse it: what follows is plain text.
    expect(nested).toMatch(/^<iframe src="https:\/\/www\.youtube\.com\/embed\/x"[^>]*><\/iframe>moreafter$/);
  });

  it('drops scripts, styles, forms, meta refresh, base, objects, SVG and MathML with their content', () => {
    expect(cleaned('<p>a</p><script>alert(1)</script><style>body{display:none}</style><p>b</p>')).toBe(
      '<p>a</p><p>b</p>',
    );
    expect(
      cleaned(
        '<meta http-equiv="refresh" content="0;url=https://evil.example"><base href="https://evil.example/">x',
      ),
    ).toBe('x');
    expect(
      cleaned('<form action="https://evil.example"><input name="password"><button>Go</button></form>'),
    ).toBe('Go');
    expect(cleaned('<object data="x.swf"></object><embed src="x.swf">ok')).toBe('ok');
    expect(cleaned('<svg><script>alert(1)</script><a xlink:href="javascript:alert(1)">t</a></svg>ok')).toBe(
      'ok',
    );
    expect(cleaned('<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>')).toBe('');
    expect(
      cleaned('<p style="position:fixed;inset:0;z-index:9999" onclick="alert(1)" class="site-header">x</p>'),
    ).toBe('<p>x</p>');
    expect(cleaned('<div class="callout fixed hidden sr-only">x</div>')).toBe('<div class="callout">x</div>');
  });

  it('drops comments, CDATA sections and processing instructions', () => {
    expect(cleaned('a<!-- <img src=x onerror=alert(1)> -->b<![CDATA[<img src=x>]]>c<?xml x?>d')).toBe('abcd');
  });

  it('keeps a <source> only inside a <picture>', () => {
    expect(cleaned('<source srcset="/a.png"><div><source srcset="/b.png"></div>')).toBe('<div></div>');
    expect(cleaned('<video><source src="/a.mp4"></video><audio src="/a.mp3"></audio>')).toBe('');
    expect(cleaned('<picture><span><source srcset="/a.png"></span></picture>')).toBe(
      '<picture><span></span></picture>',
    );
  });
});

describe('sanitizeArticleHtml on malformed and deeply nested HTML', () => {
  it('finishes 100,000 levels of nesting and keeps no more than the nesting limit', () => {
    const levels = 100_000;
    for (const html of [
      '<div>'.repeat(levels) + 'deep' + '</div>'.repeat(levels),
      '<div>'.repeat(levels) + 'unclosed',
      '<b><i>'.repeat(levels / 2) + 'x',
      '<ul><li>'.repeat(levels / 2) + 'x' + '</li></ul>'.repeat(levels / 2),
      '<svg><g>'.repeat(levels / 2) + '<img src=x onerror=alert(1)>',
      '<x-custom a="<div>">'.repeat(levels),
      '<table><tr><td>'.repeat(levels / 3),
    ]) {
      const output = sanitizeArticleHtml(html);
      expect(depthOf(output)).toBeLessThanOrEqual(NESTING_LIMIT);
      expectSafe(output, html.slice(0, 40));
    }
    const deep = sanitizeArticleHtml('<div>'.repeat(levels) + 'deep' + '</div>'.repeat(levels));
    expect(depthOf(deep)).toBe(NESTING_LIMIT);
    expect(deep).toContain('deep');
  });

  it('finishes malformed HTML', () => {
    for (const html of [
      '<',
      '<<<<>>>>',
      '<a href="x',
      "<a href='x>y",
      '<p><b><i>misnested</b></i></p>',
      '</div></div><div>',
      '<table><p>foster<td>cell</table>',
      '<img src="a.png" alt="unterminated',
      '<div a=b=c d="e"f g=\'h\'>x</div>',
      '<!-- unterminated comment <script>alert(1)</script>',
      '<![CDATA[ unterminated',
      '<scr<script>ipt>alert(1)</script>',
      '<a href="javascript:alert(1)"<b>x</b>',
      '\u0000<p>\u0000nul</p>',
      '<p>' + '&'.repeat(1000) + '&#xD800;&#0;&#x110000;</p>',
      '<' + 'a'.repeat(10_000) + '>',
    ]) {
      expectSafe(sanitizeArticleHtml(html), JSON.stringify(html.slice(0, 40)));
    }
  });

  it('caps nesting before parsing without touching ordinary HTML', () => {
    const ordinary = '<ul>' + '<li>item'.repeat(500) + '</ul><p>a<p>b<p>c';
    expect(capNesting(ordinary)).toBe(ordinary);
    expect(capNesting('<div>'.repeat(5) + 'x' + '</div>'.repeat(5), 3)).toBe(
      '<div><div><div>x</div></div></div>',
    );
    expect(capNesting('<i title="<b>"><b>x</b></i>', 1)).toBe('<i title="<b>">x</i>');
  });
});

describe('URL checks', () => {
  const links = new Set(['http', 'https', 'mailto', 'tel']);

  it('accepts the allowed schemes and relative URLs', () => {
    expect(safeUrl(' https://example.com/a b ', links)).toBe('https://example.com/a b');
    expect(safeUrl('/files/1/a.png', links)).toBe('/files/1/a.png');
    expect(safeUrl('a.png', links)).toBe('a.png');
    expect(safeUrl('#top', links)).toBe('#top');
    expect(safeUrl('MAILTO:a@b.c', links)).toBe('MAILTO:a@b.c');
  });

  it('refuses other schemes, protocol-relative URLs and hidden characters', () => {
    for (const url of [
      'ftp://x',
      'file:///etc/passwd',
      '//x',
      '\\\\x',
      'a\\b',
      'java\u0000script:x',
      '\u2029x',
      'x\u200d',
      '',
    ]) {
      expect(safeUrl(url, links), JSON.stringify(url)).toBeNull();
    }
  });

  it('reads srcset candidates one by one', () => {
    expect(safeSrcset('a.png, b.png 2x,c.png 300w')).toBe('a.png, b.png 2x, c.png 300w');
    expect(safeSrcset('a.png 2y, javascript:x 1x')).toBeNull();
    expect(safeSrcset('https://x/a,b.png 1x')).toBe('https://x/a,b.png 1x');
  });

  it('knows the video players', () => {
    expect(videoEmbedUrl('https://www.youtube.com/embed/abc')).toBe('https://www.youtube.com/embed/abc');
    expect(videoEmbedUrl('https://player.vimeo.com/video/1?h=2')).toBe(
      'https://player.vimeo.com/video/1?h=2',
    );
    expect(videoEmbedUrl('https://vimeo.com/video/1')).toBeNull();
  });
});
