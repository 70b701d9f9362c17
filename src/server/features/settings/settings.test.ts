import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testDialects, type TestApp } from '../../testing/test-context.ts';
import { updateBranding } from '../../settings/branding.ts';

describe.each(testDialects())('settings API on %s', (dialect) => {
  describe('GET /api/settings/branding', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(dialect);
    });
    afterAll(async () => t?.close());

    it('answers the defaults on a fresh database', async () => {
      const response = await t.app.inject('/api/settings/branding');
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.json()).toEqual({
        knowledge_enabled: true,
        portal_enabled: false,
        logo_url: null,
        background_url: null,
        project_id: null,
        knowledge_title: 'How can we help you?',
        site_title: 'Help centre',
        lang: 'en',
        footer_links: [],
        languages: ['en'],
      });
    });

    it('answers what is stored, with defaults for the rest', async () => {
      await updateBranding(t.ctx.db, {
        knowledge_enabled: false,
        portal_enabled: true,
        logo_url: '/files/1/logo.png',
        project_id: 'acme',
        site_title: 'Acme help',
        lang: 'sk',
        footer_links: [{ label: 'Status', url: 'https://status.example.com' }],
      });
      expect((await t.app.inject('/api/settings/branding')).json()).toEqual({
        knowledge_enabled: false,
        portal_enabled: true,
        logo_url: '/files/1/logo.png',
        background_url: null,
        project_id: 'acme',
        knowledge_title: 'Ako vám môžeme pomôcť?',
        site_title: 'Acme help',
        lang: 'sk',
        footer_links: [{ label: 'Status', url: 'https://status.example.com' }],
        languages: ['sk'],
      });
    });

    it("answers the interface's titles in the site's language while the operator has set none", async () => {
      await updateBranding(t.ctx.db, { knowledge_title: '', site_title: '', lang: 'ru' });
      expect((await t.app.inject('/api/settings/branding')).json()).toMatchObject({
        knowledge_title: 'Чем мы можем вам помочь?',
        site_title: 'Справочный центр',
      });
      await updateBranding(t.ctx.db, { lang: 'pt-BR' });
      expect((await t.app.inject('/api/settings/branding')).json()).toMatchObject({
        knowledge_title: 'Como podemos ajudar você?',
        site_title: 'Central de ajuda',
      });
    });
  });

  describe('GET /panel/api/v2/system/environments', () => {
    const environments = async (env: Record<string, string>) => {
      const t = await createTestApp(dialect, env);
      try {
        const response = await t.app.inject('/panel/api/v2/system/environments');
        expect(response.statusCode).toBe(200);
        return response.json();
      } finally {
        await t.close();
      }
    };

    it("answers the public URL, its own portal ('') and the self-hosted captcha by default", async () => {
      expect(await environments({})).toEqual({
        user_portal: '',
        knowledge_portal: 'http://localhost:3000',
        disable_google_captcha: false,
        captcha: { provider: 'altcha', site_key: null, challenge_url: '/api/captcha/challenge' },
        accounts: { signup: 'open', signup_domains: [], mail: false },
      });
    });

    it('answers who may sign up and whether mail is sent', async () => {
      const body = await environments({
        SIGNUP: 'domains: Example.com, example.org',
        SMTP_URL: 'smtp://127.0.0.1:2525',
      });
      expect(body.accounts).toEqual({
        signup: 'domains',
        signup_domains: ['example.com', 'example.org'],
        mail: true,
      });
    });

    it('answers the configured hosts and the reCAPTCHA site key, never its secret', async () => {
      const body = await environments({
        PUBLIC_URL: 'https://help.example.com/',
        PORTAL_URL: 'https://portal.example.com',
        CAPTCHA_PROVIDER: 'recaptcha',
        RECAPTCHA_SITE_KEY: 'site-key-123',
        RECAPTCHA_SECRET: 'very-secret',
      });
      expect(body).toEqual({
        user_portal: 'https://portal.example.com',
        knowledge_portal: 'https://help.example.com',
        disable_google_captcha: false,
        captcha: { provider: 'recaptcha', site_key: 'site-key-123', challenge_url: null },
        accounts: { signup: 'open', signup_domains: [], mail: false },
      });
      expect(JSON.stringify(body)).not.toContain('very-secret');
    });

    it('says captcha is off when the provider is none', async () => {
      const body = await environments({ CAPTCHA_PROVIDER: 'none' });
      expect(body.disable_google_captcha).toBe(true);
      expect(body.captcha).toEqual({ provider: 'none', site_key: null, challenge_url: null });
    });
  });
});
