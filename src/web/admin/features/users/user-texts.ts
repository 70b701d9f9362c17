import type { UserRole } from '../../../../shared/constants.ts';
import { codeOf, messageOf } from '../../lib/errors.ts';

/** The users page's words for roles and for a server that sends no mail, shared by its forms and its table. */

export const NO_MAIL =
  'No mail server is set (SMTP_URL), so invitations cannot be sent. Add the customer with a password below instead.';

/** What an invitation's refusal says: a missing mail server in words the admin can act on. */
export const inviteMessage = (error: unknown) =>
  codeOf(error) === 'mail_unavailable' ? NO_MAIL : messageOf(error);

export const ROLE_NAMES: Record<UserRole, string> = {
  admin: 'Administrator',
  agent: 'Agent',
  customer: 'Customer',
};
/** The role in a sentence: "Ann is an agent now." */
export const ROLE_PHRASES: Record<UserRole, string> = {
  admin: 'an administrator',
  agent: 'an agent',
  customer: 'a customer',
};
export const ROLE_HINT =
  'Administrators do everything; agents answer requests; customers use the help centre.';
