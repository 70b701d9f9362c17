import { useRouteLoaderData } from 'react-router';
import type { AuthUser } from '../../../shared/api/auth.ts';
import type { Branding } from '../../../shared/api/settings.ts';
import type { TicketRouting } from '../../../shared/api/tickets.ts';

/**
 * Who is signed in, as the session loader (features/session) found it: every page and feature reads it here, so that
 * none has to import the session feature.
 */
export interface SessionData {
  user: AuthUser;
  branding: Branding;
  /** Whether new support requests reach the team; the shell warns when they reach nobody. */
  routing: TicketRouting;
}

export const useSession = () => useRouteLoaderData('session') as SessionData;
