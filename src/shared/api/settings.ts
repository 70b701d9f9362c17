import { Type, type Static } from 'typebox';
import { FOOTER_LABEL_MAX, FOOTER_LINKS_MAX, FOOTER_URL_MAX } from '../footer-links.ts';
import { TITLE_MAX } from '../constants.ts';

export { LANGUAGES } from '../constants.ts';
export const Language = Type.Union([
  Type.Literal('en'),
  Type.Literal('ru'),
  Type.Literal('pt-BR'),
  Type.Literal('it'),
  Type.Literal('sk'),
]);
export type Language = Static<typeof Language>;

/** A link of the public site's footer; what it may hold is in shared/footer-links.ts. */
export const FooterLink = Type.Object({
  label: Type.String({ minLength: 1, maxLength: FOOTER_LABEL_MAX }),
  url: Type.String({ minLength: 1, maxLength: FOOTER_URL_MAX }),
});
export type FooterLink = Static<typeof FooterLink>;

/** The titles in one language other than the site's: an empty or missing one falls back (see branding.ts). */
export const BrandingTitles = Type.Object({
  knowledge_title: Type.Optional(Type.String({ maxLength: TITLE_MAX })),
  site_title: Type.Optional(Type.String({ maxLength: TITLE_MAX })),
});
export type BrandingTitles = Static<typeof BrandingTitles>;

export const Branding = Type.Object({
  knowledge_enabled: Type.Boolean(),
  portal_enabled: Type.Boolean(),
  logo_url: Type.Union([Type.String(), Type.Null()]),
  background_url: Type.Union([Type.String(), Type.Null()]),
  project_id: Type.Union([Type.String(), Type.Null()]),
  knowledge_title: Type.String(),
  site_title: Type.String(),
  lang: Language,
  footer_links: Type.Array(FooterLink, {
    maxItems: FOOTER_LINKS_MAX,
    description: "our addition: the footer's links (label, http(s) or site-relative url), in order",
  }),
  titles: Type.Optional(
    Type.Record(Type.String(), BrandingTitles, {
      description: 'our addition: knowledge_title and site_title per language other than `lang`',
    }),
  ),
  languages: Type.Optional(
    Type.Array(Language, {
      description:
        'our addition: the languages the help centre has content in, `lang` (the source and fallback) first; answered, never stored',
    }),
  ),
});
export type Branding = Static<typeof Branding>;

export const CaptchaProvider = Type.Union([
  Type.Literal('altcha'),
  Type.Literal('recaptcha'),
  Type.Literal('none'),
]);
export type CaptchaProvider = Static<typeof CaptchaProvider>;

export const Environments = Type.Object({
  user_portal: Type.Union([Type.String(), Type.Null()], {
    description:
      'the customer portal (tickets, new request, profile, sign-in); null when there is none, and then no page links to it',
  }),
  knowledge_portal: Type.String({ description: 'public base URL of the help centre' }),
  disable_google_captcha: Type.Boolean(),
  captcha: Type.Object({
    provider: CaptchaProvider,
    site_key: Type.Union([Type.String(), Type.Null()]),
    challenge_url: Type.Union([Type.String(), Type.Null()]),
  }),
  accounts: Type.Object(
    {
      signup: Type.Union([
        Type.Literal('open'),
        Type.Literal('domains'),
        Type.Literal('invite'),
        Type.Literal('off'),
      ]),
      signup_domains: Type.Array(Type.String()),
      mail: Type.Boolean({
        description: 'whether the server sends mail (verification, password reset, replies)',
      }),
    },
    { description: "what the portal's own accounts offer: sign-up and emailed links work only with mail" },
  ),
});
export type Environments = Static<typeof Environments>;
