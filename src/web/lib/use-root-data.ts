import { useRouteLoaderData } from 'react-router';
import type { AuthUser } from '../../shared/api/auth.ts';
import type { Category, Section } from '../../shared/api/knowledge.ts';
import type { Branding, Environments } from '../../shared/api/settings.ts';
import { portalLinks, type PortalLinks } from './portal-links.ts';

/**
 * What the root loader (routes/root-data.ts) gives every page of the layout. Pages and features read it here, so that
 * no feature imports the routes.
 */
/** The root data could not be loaded (branding or environments): the page shows the bundle's error. */
export class BundleError extends Error {}

export interface RootData {
  branding: Branding;
  environments: Environments;
  sections: Section[];
  categories: Category[];
  /** Set when part of the knowledge base could not be loaded: the page shows what it has and says so. */
  bundleError: 'bundleIncomplete' | null;
  /** The signed-in visitor, when the server rendered the page for them (their session cookie). */
  user: AuthUser | null;
}

export const useRootData = () => useRouteLoaderData('root') as RootData;

export function usePortalLinks(): PortalLinks {
  const { branding, environments } = useRootData();
  return portalLinks(branding, environments);
}
