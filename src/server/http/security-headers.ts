import type { FastifyInstance } from 'fastify';
import type { Config } from '../config/config.ts';
import { NON_DOCUMENT_POLICY } from './csp.ts';

/**
 * Headers every answer carries. Answers kept in memory keep them too: the cache stores the headers these hooks set
 * (its own hook runs last) and replays them, from memory, before the framework.
 */

/** Other sites learn our origin from a link, never the page's path or query (a search's words). */
export const REFERRER_POLICY = 'strict-origin-when-cross-origin';

/**
 * What a help centre never uses, turned off for its documents and anything they frame. Video players keep what the
 * sanitiser's `allow` grants them (fullscreen, picture-in-picture, encrypted-media); only features every current
 * browser knows are named, since an unknown one is a console error on every page.
 */
export const PERMISSIONS_POLICY = [
  'accelerometer',
  'camera',
  'display-capture',
  'geolocation',
  'gyroscope',
  'hid',
  'idle-detection',
  'magnetometer',
  'microphone',
  'midi',
  'payment',
  'publickey-credentials-get',
  'screen-wake-lock',
  'serial',
  'usb',
  'xr-spatial-tracking',
]
  .map((feature) => `${feature}=()`)
  .join(', ');

/**
 * A year, for this host only: `includeSubDomains` would force https on every sibling of a help centre served at a
 * domain's apex, which is the domain owner's decision (docs/decisions.md).
 */
export const STRICT_TRANSPORT_SECURITY = 'max-age=31536000';

export function registerSecurityHeaders(app: FastifyInstance, config: Pick<Config, 'publicUrl'>): void {
  // Browsers ignore HSTS sent over http; sent only when visitors are meant to use https, so a plain-http install
  // (a laptop, a test) never pins a host to https.
  const https = config.publicUrl.startsWith('https:');
  app.addHook('onSend', async (_request, reply) => {
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('Referrer-Policy', REFERRER_POLICY);
    if (https) reply.header('Strict-Transport-Security', STRICT_TRANSPORT_SECURITY);
    if (/^text\/html/i.test(String(reply.getHeader('Content-Type') ?? ''))) {
      reply.header('Permissions-Policy', PERMISSIONS_POLICY);
    } else if (!reply.hasHeader('Content-Security-Policy')) {
      // Pages and downloads set their own policy (csp.ts); anything else that is not HTML loads nothing.
      reply.header('Content-Security-Policy', NON_DOCUMENT_POLICY);
    }
  });
}
