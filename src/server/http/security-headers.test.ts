import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config/config.ts';
import { createContext } from '../context-factory.ts';
import { readWebAssets } from '../render/web-assets.ts';
import { buildArticle, buildFile } from '../testing/factories.ts';
import { createTestApp, testDialects, type TestApp } from '../testing/test-context.ts';

const directive = (policy: unknown, name: string) =>
  String(policy ?? '')
    .split(';')
    .map((d) => d.trim().split(/\s+/))
    .find(([directiveName]) => directiveName === name)
    ?.slice(1);

/** Every kind of answer: pages (rendered and kept), calls (kept and not), errors, a redirect, files, the admin app. */
async function everyKindOfAnswer(t: TestApp) {
  const article = await buildArticle(t.ctx.db, { title: 'Headers article' });
  const file = await buildFile(t.ctx, { name: 'manual.pdf', content: '%PDF-1.4', articleId: article.id });
  const urls = [
    `/knowledge/instruction/${article.id}`,
    `/knowledge/instruction/${article.id}`,
    '/knowledge/zzz',
    '/',
    `/api/knowledge/instruction/${article.id}`,
    `/api/knowledge/instruction/${article.id}`,
    '/api/user/me',
    '/api/nothing',
    `/files/${file.id}/manual.pdf`,
    readWebAssets().script ?? '',
    '/admin/',
    '/healthz',
  ];
  const answers = [];
  for (const url of urls) answers.push({ url, answer: await t.app.inject(url) });
  const post = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: {} });
  answers.push({ url: 'POST /api/auth/login', answer: post });
  expect(answers[1]?.answer.headers['x-cache']).toBe('hit');
  expect(answers[5]?.answer.headers['x-cache']).toBe('hit');
  return answers;
}

const isHtml = (headers: Record<string, unknown>) => /^text\/html/.test(String(headers['content-type']));

describe.each(testDialects())('headers of every answer on %s', (dialect) => {
  describe('with an http PUBLIC_URL and no FRAME_ANCESTORS', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(dialect, { PUBLIC_URL: 'http://help.example.com' });
    });
    afterAll(async () => t?.close());

    it('sends Referrer-Policy on all, Permissions-Policy on documents, no HSTS, and forbids framing', async () => {
      for (const { url, answer } of await everyKindOfAnswer(t)) {
        expect(answer.headers['referrer-policy'], url).toBe('strict-origin-when-cross-origin');
        expect(answer.headers['strict-transport-security'], url).toBeUndefined();
        if (!isHtml(answer.headers)) continue;
        const permissions = String(answer.headers['permissions-policy']);
        for (const feature of ['camera', 'microphone', 'geolocation', 'payment', 'usb', 'serial', 'hid']) {
          expect(permissions, `${url} ${feature}`).toContain(`${feature}=()`);
        }
        // What the video players in articles are allowed (the sanitiser's allow attribute) stays possible.
        expect(permissions).not.toMatch(/fullscreen|picture-in-picture|encrypted-media/);
        expect(directive(answer.headers['content-security-policy'], 'frame-ancestors'), url).toEqual([
          "'none'",
        ]);
      }
    });
  });

  describe('with an https PUBLIC_URL and embedding allowed by FRAME_ANCESTORS', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(dialect, {
        PUBLIC_URL: 'https://help.example.com',
        FRAME_ANCESTORS: "https://portal.example.com, 'self'",
      });
    });
    afterAll(async () => t?.close());

    it('sends HSTS on every answer, and lets the named origins frame public pages, never the admin app', async () => {
      const answers = await everyKindOfAnswer(t);
      for (const { url, answer } of answers) {
        expect(answer.headers['strict-transport-security'], url).toBe('max-age=31536000');
        expect(answer.headers['referrer-policy'], url).toBe('strict-origin-when-cross-origin');
      }
      const ancestors = (url: string) =>
        directive(
          answers.find((a) => a.url === url)?.answer.headers['content-security-policy'],
          'frame-ancestors',
        );
      expect(ancestors(answers[0]?.url ?? '')).toEqual(['https://portal.example.com', "'self'"]);
      expect(ancestors('/knowledge/zzz')).toEqual(['https://portal.example.com', "'self'"]);
      expect(ancestors('/admin/')).toEqual(["'none'"]);
      expect(answers.find((a) => a.url === '/admin/')?.answer.headers['x-frame-options']).toBe('DENY');
    });

    it('sends them with answers kept in memory, before the framework', async () => {
      const ctx = await createContext({
        ...t.environment.config,
        cache: { ...t.ctx.config.cache, revisionCheckMs: 60_000 },
      });
      const app = await buildApp(ctx);
      try {
        await app.listen({ port: 0, host: '127.0.0.1' });
        const { port } = app.server.address() as AddressInfo;
        for (const path of ['/knowledge/', '/api/knowledge/all-sections']) {
          await fetch(`http://127.0.0.1:${port}${path}`);
          const kept = await fetch(`http://127.0.0.1:${port}${path}`);
          expect(kept.headers.get('x-cache'), path).toBe('hit');
          expect(kept.headers.get('strict-transport-security'), path).toBe('max-age=31536000');
          expect(kept.headers.get('referrer-policy'), path).toBe('strict-origin-when-cross-origin');
        }
        const page = await fetch(`http://127.0.0.1:${port}/knowledge/`);
        expect(page.headers.get('permissions-policy')).toContain('camera=()');
        expect(directive(page.headers.get('content-security-policy'), 'frame-ancestors')).toEqual([
          'https://portal.example.com',
          "'self'",
        ]);
      } finally {
        await app.close();
        await ctx.database.close();
      }
    });
  });
});

describe('FRAME_ANCESTORS', () => {
  const env = { DATA_DIR: '/tmp/signpost-frame-ancestors' };

  it('reads origins and self; unset forbids framing', () => {
    expect(loadConfig(env).frameAncestors).toEqual(["'none'"]);
    expect(
      loadConfig({ ...env, FRAME_ANCESTORS: "https://portal.example.com http://localhost:8080 self 'self'" })
        .frameAncestors,
    ).toEqual(['https://portal.example.com', 'http://localhost:8080', "'self'"]);
    expect(loadConfig({ ...env, FRAME_ANCESTORS: 'https://*.example.com:8443' }).frameAncestors).toEqual([
      'https://*.example.com:8443',
    ]);
  });

  it('refuses anything but http(s) origins and self, naming the variable', () => {
    for (const bad of [
      '*',
      "'unsafe-inline'",
      'javascript:',
      'https://x.example/path',
      'portal.example.com',
      'none',
    ]) {
      expect(() => loadConfig({ ...env, FRAME_ANCESTORS: bad }), bad).toThrow(/^FRAME_ANCESTORS: /);
    }
  });
});
