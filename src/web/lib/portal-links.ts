import type { Branding, Environments } from '../../shared/api/settings.ts';

/** The customer portal's pages the specification links to, exactly. */
export type PortalPath = '/issues' | '/issues/create' | '/user/profile' | '/login?from=knowledge_base';

export interface PortalLinks {
  tickets: string | null;
  createIssue: string | null;
  profile: string | null;
  signIn: string | null;
}

/**
 * The one place that decides which portal links a page shows (null: none). Every one needs a portal to receive the
 * visitor (environments' user_portal: PORTAL_URL, or '' for this server's own portal pages; null would mean none,
 * and a link to a page nobody serves is a dead end). Tickets, new request and profile also need the branding to link the portal (portal_enabled, as the spec
 * says); sign-in does not, as the spec offers it to every anonymous visitor.
 */
export function portalLinks(
  branding: Pick<Branding, 'portal_enabled'>,
  environments: Pick<Environments, 'user_portal'>,
): PortalLinks {
  const portal = environments.user_portal;
  const href = (path: PortalPath) => (portal === null ? null : `${portal}${path}`);
  const linked = (path: PortalPath) => (branding.portal_enabled ? href(path) : null);
  return {
    tickets: linked('/issues'),
    createIssue: linked('/issues/create'),
    profile: linked('/user/profile'),
    signIn: href('/login?from=knowledge_base'),
  };
}
