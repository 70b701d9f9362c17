import crypto from 'node:crypto';
import { decodeEntities } from '../../shared/html.ts';

/**
 * Content-Security-Policy headers. No nonces: a page's policy depends only on what the page contains (hashes of
 * its inline scripts and style attributes, computed when it is rendered) and on the configuration, so a page kept
 * in memory and served again keeps a valid policy.
 */

/** Video players articles may embed (the sanitiser allows frames from these only, see html/sanitize.ts). */
export const VIDEO_FRAME_SOURCES = [
  'https://www.youtube.com',
  'https://www.youtube-nocookie.com',
  'https://player.vimeo.com',
];

/** What Google documents for reCAPTCHA v2 under a CSP; only when CAPTCHA_PROVIDER=recaptcha. */
const RECAPTCHA_SOURCES = {
  script: ['https://www.google.com/recaptcha/', 'https://www.gstatic.com/recaptcha/'],
  frame: ['https://www.google.com/recaptcha/', 'https://recaptcha.google.com/recaptcha/'],
  connect: ['https://www.google.com/recaptcha/'],
};

/** Downloads: nothing may load, and a document opened from one runs sandboxed (no script, own origin). */
export const FILE_DOWNLOAD_POLICY = "default-src 'none'; sandbox";

/** Any other answer that is not a page (JSON, errors, assets): it may load nothing and be framed by nobody. */
export const NON_DOCUMENT_POLICY = "default-src 'none'; frame-ancestors 'none'";

/** The CSP source expression for a text's SHA-256 (as browsers hash an inline script or a style attribute). */
export const sha256Source = (text: string) =>
  `'sha256-${crypto.createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/**
 * Hashes of the `style` attributes React rendered into a page (the header's branding background is one). Stored
 * HTML never has any (the sanitiser drops them), and text never looks like a tag (`<` is always escaped), so these
 * are the site's own.
 */
export function styleAttributeHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const match of html.matchAll(/<[a-zA-Z][^<>]*?\sstyle="([^"]*)"/g)) {
    hashes.add(sha256Source(decodeEntities(match[1] ?? '')));
  }
  return [...hashes];
}

const SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi;

const originOf = (url: string): string | null => {
  try {
    const parsed = new URL(url.startsWith('//') ? `https:${url}` : url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.origin : null;
  } catch {
    return null;
  }
};

/**
 * What an operator's analytics snippet needs: the hashes of its inline scripts (hashed as they are sent, after
 * `{{project_id}}` was filled in), the origins of its external scripts, and the origins its inline code names
 * (a tag manager's loader builds `https://host/tag.js` URLs; its beacons go to the same hosts).
 */
export function snippetSources(snippet: string): { hashes: string[]; origins: string[] } {
  const hashes = new Set<string>();
  const origins = new Set<string>();
  for (const [, attributes = '', code = ''] of snippet.matchAll(SCRIPT)) {
    const src = /\ssrc\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(attributes);
    if (src) {
      const origin = originOf(src[1] ?? src[2] ?? src[3] ?? '');
      if (origin) origins.add(origin);
      continue;
    }
    const type = /\stype\s*=\s*["']?([^"'\s>]+)/i.exec(attributes)?.[1]?.toLowerCase();
    if (type && !/^(module|text\/javascript|application\/javascript)$/.test(type)) continue;
    hashes.add(sha256Source(code));
    for (const url of code.matchAll(/(?:https?:)?\/\/[a-z0-9.-]+\.[a-z]{2,}(?::\d+)?/gi)) {
      const origin = originOf(url[0]);
      if (origin) origins.add(origin);
    }
  }
  return { hashes: [...hashes], origins: [...origins] };
}

/** What a public page contains that its policy must allow. */
export interface PageHashes {
  /** Inline scripts, as `'sha256-…'` sources (the analytics snippet's; the page's own data is inert JSON). */
  scripts: readonly string[];
  /** Style attributes React rendered, as `'sha256-…'` sources (allowed with `'unsafe-hashes'`). */
  styleAttributes: readonly string[];
}

export interface PublicPolicyConfig {
  captchaProvider: 'altcha' | 'recaptcha' | 'none';
  /** Origins the analytics snippet loads scripts from and sends to (its own and ANALYTICS_CSP_SOURCES). */
  analyticsOrigins?: readonly string[];
  /** Who may frame the page (FRAME_ANCESTORS); nobody unless the operator names someone. */
  frameAncestors?: readonly string[];
}

const directive = (name: string, sources: readonly string[]) => `${name} ${[...new Set(sources)].join(' ')}`;

/** The policy of a public page under /knowledge. */
export function publicPagePolicy(hashes: PageHashes, config: PublicPolicyConfig): string {
  const recaptcha = config.captchaProvider === 'recaptcha';
  const analytics = config.analyticsOrigins ?? [];
  return [
    "default-src 'self'",
    directive('script-src', [
      "'self'",
      ...hashes.scripts,
      ...analytics,
      ...(recaptcha ? RECAPTCHA_SOURCES.script : []),
    ]),
    directive('style-src', [
      "'self'",
      ...(hashes.styleAttributes.length ? ["'unsafe-hashes'", ...hashes.styleAttributes] : []),
    ]),
    // Article images may live on other sites (the favicon is /favicon.svg, no longer a data: URL).
    "img-src 'self' data: https:",
    "font-src 'self'",
    directive('frame-src', [...VIDEO_FRAME_SOURCES, ...(recaptcha ? RECAPTCHA_SOURCES.frame : [])]),
    directive('connect-src', ["'self'", ...analytics, ...(recaptcha ? RECAPTCHA_SOURCES.connect : [])]),
    "media-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    directive('frame-ancestors', config.frameAncestors ?? ["'none'"]),
  ].join('; ');
}

/**
 * The policy of the admin app's shell (/admin). Its scripts are the bundle only; styles may be inline because the
 * rich-text editor (ProseMirror/Tiptap) writes `<style>` elements and style attributes; images may be blob: and
 * data: URLs (pasted and picked files); previews render in srcdoc frames, which inherit this policy.
 */
export function adminPagePolicy(): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https:",
    "font-src 'self' data:",
    directive('frame-src', ["'self'", ...VIDEO_FRAME_SOURCES]),
    "connect-src 'self'",
    "media-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}
