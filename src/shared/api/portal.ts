import { Type, type Static } from 'typebox';
import { PasswordResetBody } from './auth.ts';
import { Id, PageNumber } from './common.ts';
import { TICKET_MESSAGE_MAX, TicketFile, TicketMessage, TicketStatusSchema } from './tickets.ts';

/**
 * The requester's side of a request, in the customer portal: what they sent, the team's replies and their own,
 * where it stands. Never the team's internal notes, the assignee or the deliveries: a message is the team's
 * TicketMessage without its `internal` flag.
 */
export const PortalMessage = Type.Omit(TicketMessage, ['internal']);
export type PortalMessage = Static<typeof PortalMessage>;

export const PortalTicketSummary = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  status: TicketStatusSchema,
  created_at: Type.String({ description: 'ISO 8601' }),
  updated_at: Type.String({ description: 'ISO 8601: the last message or change' }),
});
export type PortalTicketSummary = Static<typeof PortalTicketSummary>;

export const PortalTicket = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  description: Type.String(),
  name: Type.String(),
  status: TicketStatusSchema,
  created_at: Type.String({ description: 'ISO 8601' }),
  updated_at: Type.String({ description: 'ISO 8601' }),
  files: Type.Array(TicketFile),
  messages: Type.Array(PortalMessage),
});
export type PortalTicket = Static<typeof PortalTicket>;

export const PortalListQuery = Type.Object({ page: Type.Optional(PageNumber) });

/** The private link's key, for a requester without an account (in the mail the team's reply came with). */
const LinkKey = Type.Optional(Type.String({ maxLength: 64 }));

export const PortalTicketQuery = Type.Object({ key: LinkKey });
export const PortalTicketParams = Type.Object({ id: Id });

export const PortalReplyBody = Type.Object({
  body: Type.String({ minLength: 1, maxLength: TICKET_MESSAGE_MAX }),
  files: Type.Optional(Type.Array(Id, { maxItems: 20 })),
  key: LinkKey,
});
export type PortalReplyBody = Static<typeof PortalReplyBody>;

/** The requester marks their request solved, or reopens a solved one. */
export const PortalStatusBody = Type.Object({
  status: Type.Union([Type.Literal('solved'), Type.Literal('open')]),
  key: LinkKey,
});
export type PortalStatusBody = Static<typeof PortalStatusBody>;

/** Whom to mail new private links to their requests: an email and the captcha, as a password reset asks. */
export const IssueLinksBody = PasswordResetBody;
export type IssueLinksBody = Static<typeof IssueLinksBody>;
