import type { Branding } from '../../../shared/api/settings.ts';

/** What loading the demo sets besides its content; replacing the content takes back what still holds it. */
export const DEMO_BRANDING = {
  site_title: 'Lumo Help Centre',
  portal_enabled: true,
} as const satisfies Partial<Branding>;
