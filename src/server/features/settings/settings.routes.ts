import type { FastifyInstance } from 'fastify';
import { endpoints } from '../../../shared/api/endpoints.ts';
import type { Environments } from '../../../shared/api/settings.ts';
import type { Config } from '../../config/config.ts';
import type { AppContext } from '../../context.ts';
import { route } from '../../http/route.ts';
import { getBranding } from '../../settings/branding.ts';

/**
 * Where the customer portal's pages (tickets, new request, profile, sign-in) are, or null when nothing would answer
 * them: the public site then links to none. Signpost does not serve those pages itself yet, so only an external
 * portal (PORTAL_URL) counts; the day it does, this answers its own address and every portal link appears.
 */
export function portalAddress(config: Config): string | null {
  return config.portalUrl;
}

export function presentEnvironments({ config }: AppContext): Environments {
  const { captcha } = config;
  return {
    user_portal: portalAddress(config),
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
  route(app, endpoints.getBranding, async () => getBranding(ctx.db));
  route(app, endpoints.getEnvironments, async () => presentEnvironments(ctx));
}
