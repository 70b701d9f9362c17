import { Type, type Static } from 'typebox';
import { FileLinkQuery, Id, PageNumber } from './common.ts';
import { Language } from './settings.ts';
import { SEARCH_TEXT_MAX } from '../constants.ts';

export const UploadedFile = Type.Object({
  id: Type.Integer(),
  original_name: Type.String(),
  file_size: Type.Integer({ minimum: 0, description: 'bytes' }),
});
export type UploadedFile = Static<typeof UploadedFile>;
export const UploadResult = Type.Array(UploadedFile);

export const TicketFileParams = Type.Object({ id: Id });
// Optional here so that a link missing either part answers the same 403 as a wrong one.
export const TicketFileQuery = FileLinkQuery;

/**
 * The specification's request body. The schema checks types only: the service checks presence, formats and lengths
 * so that it can answer every field's problem at once, in the interface language (422). The body limit (1 MB)
 * bounds what arrives at all.
 */
export const IssueOpenBody = Type.Object({
  title: Type.String(),
  description: Type.String(),
  channel: Type.Optional(Type.String()),
  name: Type.String(),
  email: Type.String(),
  files: Type.Optional(Type.Array(Id, { maxItems: 1000 })),
  g_recaptcha_response: Type.Optional(Type.String({ maxLength: 20_000 })),
  lang: Type.Optional(
    Type.Union([Language], {
      description:
        "our addition: the language of the page the request was sent from (`?lang=`); the ticket records it and the field errors answer in it; the site's when left out",
    }),
  ),
});
export type IssueOpenBody = Static<typeof IssueOpenBody>;

export const IssueOpenResult = Type.Object({
  data: Type.Object({ id: Type.Integer(), files: Type.Array(Type.Integer()) }),
  link: Type.Union([Type.String(), Type.Null()], {
    description:
      "the request's page in this server's portal, for a sender signed in; null without an account (the private link is mailed to the request's address, and the answer sets an HttpOnly cookie per request, scoped to /issues/{id} and /api/portal/issues/{id}, that opens the request in this browser until the address's owner answers by mail or opens the mailed link) and with PORTAL_URL",
  }),
});
export type IssueOpenResult = Static<typeof IssueOpenResult>;

export const CaptchaChallenge = Type.Object({
  algorithm: Type.Literal('SHA-256'),
  challenge: Type.String(),
  maxnumber: Type.Integer(),
  salt: Type.String(),
  signature: Type.String(),
});
export type CaptchaChallenge = Static<typeof CaptchaChallenge>;

export const TicketStatusSchema = Type.Union([
  Type.Literal('new'),
  Type.Literal('open'),
  Type.Literal('waiting'),
  Type.Literal('solved'),
  Type.Literal('closed'),
]);

export const TicketDelivery = Type.Object({
  target: Type.Union(
    [Type.Literal('webhook'), Type.Literal('email'), Type.Literal('requester'), Type.Literal('team')],
    {
      description:
        'email: the request to SUPPORT_EMAIL; requester: a reply mailed to the requester; team: a reply of the requester mailed to the team',
    },
  ),
  message_id: Type.Union([Type.Integer(), Type.Null()], { description: 'null: the request itself' }),
  status: Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')]),
  attempts: Type.Integer(),
  last_error: Type.Union([Type.String(), Type.Null()]),
  delivered_at: Type.Union([Type.String(), Type.Null()]),
});

export const TicketFile = Type.Object({
  id: Type.Integer(),
  original_name: Type.String(),
  file_size: Type.Integer(),
  link: Type.String({ description: 'a signed path that downloads the file for 30 days, without signing in' }),
});

/** One message after the request: a reply of the team or of the requester, or the team's internal note. */
export const TicketMessage = Type.Object({
  id: Type.Integer(),
  author_name: Type.String(),
  from_team: Type.Boolean(),
  internal: Type.Boolean({
    description: 'a note for the team only: never shown to the requester, never mailed',
  }),
  body_text: Type.String(),
  body_html: Type.String({ description: 'safe to place in a page' }),
  created_at: Type.String({ description: 'ISO 8601' }),
  files: Type.Array(TicketFile),
});
export type TicketMessage = Static<typeof TicketMessage>;

export const TicketView = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  description: Type.String(),
  name: Type.String(),
  email: Type.String(),
  channel: Type.String(),
  user_id: Type.Union([Type.Integer(), Type.Null()]),
  lang: Type.String(),
  created_at: Type.String({ description: 'ISO 8601' }),
  status: TicketStatusSchema,
  assignee_id: Type.Union([Type.Integer(), Type.Null()]),
  updated_at: Type.String({ description: 'ISO 8601: when anything last happened to it' }),
  files: Type.Array(TicketFile),
  messages: Type.Array(TicketMessage),
  deliveries: Type.Array(TicketDelivery),
});
export type TicketView = Static<typeof TicketView>;

/** The same requester's other requests, for the team: at most RELATED_TICKETS_MAX, latest activity first. */
export const RELATED_TICKETS_MAX = 10;
export const RelatedTickets = Type.Object({
  items: Type.Array(
    Type.Object({
      id: Type.Integer(),
      title: Type.String(),
      status: TicketStatusSchema,
      updated_at: Type.String({ description: 'ISO 8601' }),
    }),
  ),
});
export type RelatedTickets = Static<typeof RelatedTickets>;

/** Where a new support request goes besides the database: the team hears of it only through these. */
export const TicketRouting = Type.Object({
  email: Type.Boolean({
    description:
      'the team hears of new requests by mail: SUPPORT_EMAIL, or with SMTP_URL alone every member of the team',
  }),
  webhook: Type.Boolean({ description: 'TICKET_WEBHOOK_URL is set' }),
  mail: Type.Boolean({ description: "SMTP_URL is set: the team's replies are mailed to requesters" }),
  stored: Type.Integer({ description: 'requests kept in the database' }),
});
export type TicketRouting = Static<typeof TicketRouting>;

/** What the team changes on a request: where it stands and who answers it (null: nobody). */
export const TicketUpdateBody = Type.Object({
  status: Type.Optional(TicketStatusSchema),
  assignee_id: Type.Optional(Type.Union([Id, Type.Null()])),
});
export type TicketUpdateBody = Static<typeof TicketUpdateBody>;

/** Longest message, as for the request itself. */
export const TICKET_MESSAGE_MAX = 20_000;
/** Longest message written as rich text: its markup on top of TICKET_MESSAGE_MAX of text. */
export const TICKET_MESSAGE_HTML_MAX = 100_000;

/**
 * A reply of the team (mailed to the requester) or an internal note (`internal`, for the team only), with files
 * uploaded first, and the status to leave the request in (otherwise: a reply waits for the customer, a note on a new
 * request opens it).
 */
export const TicketReplyBody = Type.Object({
  /** The message as plain text; or give `body_html`. */
  body: Type.Optional(Type.String({ minLength: 1, maxLength: TICKET_MESSAGE_MAX })),
  /**
   * The message as rich text (paragraphs, emphasis, links, lists, quotes, code), sanitised by the server; its text
   * (for the mail's plain part and search) is made from it. Wins over `body`.
   */
  body_html: Type.Optional(Type.String({ minLength: 1, maxLength: TICKET_MESSAGE_HTML_MAX })),
  internal: Type.Optional(Type.Boolean()),
  status: Type.Optional(TicketStatusSchema),
  files: Type.Optional(Type.Array(Id, { maxItems: 20 })),
});
export type TicketReplyBody = Static<typeof TicketReplyBody>;

export const TicketListQuery = Type.Object({
  page: Type.Optional(PageNumber),
  per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  status: Type.Optional(TicketStatusSchema),
  assignee: Type.Optional(
    Type.Union([Type.Literal('me'), Type.Literal('nobody')], {
      description: 'me: given to the caller; nobody: given to no one',
    }),
  ),
  q: Type.Optional(
    Type.String({
      maxLength: SEARCH_TEXT_MAX,
      description: 'words, each found whole or as a start, in the title, text, name, email or a message',
    }),
  ),
});
export type TicketListQuery = Static<typeof TicketListQuery>;

/** How many requests stand in each status, for the inbox's tabs. */
export const TicketCounts = Type.Object({
  new: Type.Integer(),
  open: Type.Integer(),
  waiting: Type.Integer(),
  solved: Type.Integer(),
  closed: Type.Integer(),
});
export type TicketCounts = Static<typeof TicketCounts>;

/** Who a request can be given to: the team, by name. */
export const TeamList = Type.Object({
  items: Type.Array(
    Type.Object({
      id: Type.Integer(),
      name: Type.String(),
      role: Type.Union([Type.Literal('admin'), Type.Literal('agent')]),
    }),
  ),
});
export type TeamList = Static<typeof TeamList>;
