import type { FastifyInstance } from 'fastify';
import { endpoints } from '../../../shared/api/endpoints.ts';
import type { Environments } from '../../../shared/api/settings.ts';
import type { AppContext } from '../../context.ts';
import { route } from '../../http/route.ts';
import { getBranding } from './branding.service.ts';

export function presentEnvironments({ config }: AppContext): Environments {
  const { captcha } = config;
  return {
    user_portal: config.portalUrl,
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
