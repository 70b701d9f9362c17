import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config.ts';
import {
  adminPagePolicy,
  FILE_DOWNLOAD_POLICY,
  publicPagePolicy,
  sha256Source,
  snippetSources,
  styleAttributeHashes,
} from './csp.ts';

const directives = (policy: string) =>
  new Map(
    policy
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .map(([name = '', ...sources]) => [name, sources]),
  );

describe('Content-Security-Policy', () => {
  it('hashes like a browser: SHA-256 of the UTF-8 text, base64', () => {
    const text = "window.x = 'é'";
    expect(sha256Source(text)).toBe(`'sha256-${crypto.createHash('sha256').update(text).digest('base64')}'`);
  });

  it('reads an analytics snippet: inline scripts by hash, external ones and named hosts by origin', () => {
    const inline =
      "(function(){var s=document.createElement('script');s.src='https://www.googletagmanager.com/gtm.js';})()";
    const sources = snippetSources(
      `<script async src="https://plausible.example/js/script.js" data-domain="x"></script>\n<script>${inline}</script>` +
        '<script type="application/ld+json">{"@context":"https://schema.org"}</script>' +
        "<script>var u='//matomo.example:8443/';</script><script src=/local.js></script>",
    );
    expect(sources.hashes).toEqual([sha256Source(inline), sha256Source("var u='//matomo.example:8443/';")]);
    expect(sources.origins).toEqual([
      'https://plausible.example',
      'https://www.googletagmanager.com',
      'https://matomo.example:8443',
    ]);
  });

  it('hashes the style attributes of rendered tags, decoded as the browser reads them', () => {
    const html =
      '<header class="site-header" style="background-image:url(&quot;https://x/a&amp;b.png&quot;)"></header>' +
      '<p>text style="color:red" &lt;b style="x"&gt;</p>';
    expect(styleAttributeHashes(html)).toEqual([sha256Source('background-image:url("https://x/a&b.png")')]);
  });

  it('allows reCAPTCHA hosts only when it is the provider', () => {
    const none = { scripts: [], styleAttributes: [] };
    const altcha = directives(publicPagePolicy(none, { captchaProvider: 'altcha' }));
    expect(altcha.get('script-src')).toEqual(["'self'"]);
    expect(altcha.get('frame-src')).not.toContain('https://www.google.com/recaptcha/');
    const recaptcha = directives(publicPagePolicy(none, { captchaProvider: 'recaptcha' }));
    expect(recaptcha.get('script-src')).toEqual([
      "'self'",
      'https://www.google.com/recaptcha/',
      'https://www.gstatic.com/recaptcha/',
    ]);
    expect(recaptcha.get('frame-src')).toContain('https://www.google.com/recaptcha/');
    expect(recaptcha.get('connect-src')).toEqual(["'self'", 'https://www.google.com/recaptcha/']);
  });

  it('never allows inline scripts, eval, plugins or a foreign base on public pages', () => {
    const policy = publicPagePolicy(
      { scripts: ["'sha256-abc'"], styleAttributes: ["'sha256-def'"] },
      { captchaProvider: 'recaptcha', analyticsOrigins: ['https://tags.example'] },
    );
    expect(policy).not.toMatch(/'unsafe-inline'|'unsafe-eval'|'strict-dynamic'|\*/);
    const parsed = directives(policy);
    expect(parsed.get('object-src')).toEqual(["'none'"]);
    expect(parsed.get('base-uri')).toEqual(["'none'"]);
    expect(parsed.get('style-src')).toEqual(["'self'", "'unsafe-hashes'", "'sha256-def'"]);
  });

  it('gives the admin shell its own policy: inline styles for the editor, still no inline script', () => {
    const admin = directives(adminPagePolicy());
    expect(admin.get('script-src')).toEqual(["'self'"]);
    expect(admin.get('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
    expect(admin.get('object-src')).toEqual(["'none'"]);
    expect(admin.get('frame-ancestors')).toEqual(["'none'"]);
    expect(FILE_DOWNLOAD_POLICY).toBe("default-src 'none'; sandbox");
  });

  it('reads ANALYTICS_CSP_SOURCES as https origins, and refuses anything else', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'signpost-csp-'));
    const snippet = path.join(dir, 'snippet.html');
    fs.writeFileSync(snippet, '<script>1</script>');
    const env = { DATA_DIR: dir, ANALYTICS_SNIPPET_FILE: snippet };
    const sources = 'https://www.google-analytics.com, https://*.analytics.example:8443';
    expect(loadConfig({ ...env, ANALYTICS_CSP_SOURCES: sources }).analytics?.cspSources).toEqual([
      'https://www.google-analytics.com',
      'https://*.analytics.example:8443',
    ]);
    for (const bad of ["'unsafe-inline'", 'http://plain.example', '*', 'https://x.example/path']) {
      expect(() => loadConfig({ ...env, ANALYTICS_CSP_SOURCES: bad }), bad).toThrow(/ANALYTICS_CSP_SOURCES/);
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
