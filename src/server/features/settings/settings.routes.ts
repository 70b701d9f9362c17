import type { FastifyInstance } from 'fastify';
import { endpoints } from '../../../shared/api/endpoints.ts';
import type { Environments } from '../../../shared/api/settings.ts';
import type { Config } from '../../config/config.ts';
import type { AppContext } from '../../context.ts';
import { route } from '../../http/route.ts';
import { brandingIn, getStoredBranding } from '../../settings/branding.ts';
import { readerRoute } from '../../content/reader.ts';

/**
 * Where the customer portal's pages (tickets, new request, profile, sign-in) are: an external portal (PORTAL_URL),
 * else this server, which serves them itself: '' makes every portal link a path on the host the visitor is on.
 */
export function portalAddress(config: Config): string {
  return config.portalUrl ?? '';
}

export function presentEnvironments({ config }: AppContext): Environments {
  const { captcha } = config;
  return {
    user_portal: portalAddress(config),
    accounts: {
      signup: config.signup.mode,
      signup_domains: config.signup.mode === 'domains' ? config.signup.domains : [],
      mail: config.tickets.smtpUrl !== null,
    },
    knowledge_portal: config.publicUrl,
    disable_google_captcha: captcha.provider === 'none',
    captcha: {
      provider: captcha.provider,
      site_key: captcha.provider === 'recaptcha' ? captcha.siteKey : null,
      challenge_url: captcha.provider === 'altcha' ? '/api/captcha/challenge' : null,
    },
  };
}

export function registerSettingsRoutes(app: FastifyInstance, ctx: AppContext): void {
  // Titles in the language asked for, and the languages the content is in (for the switcher and negotiation).
  readerRoute(app, endpoints.getBranding, async (reader) => {
    const [stored, { languages }] = await Promise.all([
      getStoredBranding(ctx.db),
      app.readers.languages.load(reader.revision),
    ]);
    return { ...brandingIn(stored, reader.lang), languages };
  });
  route(app, endpoints.getEnvironments, async () => presentEnvironments(ctx));
}
