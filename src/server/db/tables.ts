import type { TicketStatus, UserRole, Visibility } from '../../shared/constants.ts';
import type { Generated, Selectable } from 'kysely';

/** Booleans are stored as 0/1 integers on both databases, so one row type serves both dialects. */
export type Flag = 0 | 1;
/** Milliseconds since the epoch. */
export type Millis = number;

export interface SectionTable {
  id: Generated<number>;
  name: string;
  position: number;
  source_path: string | null;
  created_at: Millis;
  updated_at: Millis;
  /** Added by 0013-visibility, 'everyone' for every row before it. */
  visibility: Generated<Visibility>;
  /** Its own language (0024-translations); null is the site's, whichever that is. */
  lang: string | null;
}

export interface CategoryTable {
  id: Generated<number>;
  section_id: number;
  parent_id: number | null;
  name: string;
  description: string;
  description_source: string | null;
  icon_file_id: number | null;
  icon_type: 'file' | 'font' | null;
  font_icon: string | null;
  position: number;
  source_path: string | null;
  created_at: Millis;
  updated_at: Millis;
  /** Added by 0013-visibility, 'everyone' for every row before it. */
  visibility: Generated<Visibility>;
  /** Its own language (0024-translations); null is the site's, whichever that is. */
  lang: string | null;
}

export interface ArticleTable {
  id: Generated<number>;
  section_id: number;
  category_id: number | null;
  title: string;
  body_html: string;
  body_source: string | null;
  lang: string | null;
  can_create_issue: Flag;
  published: Flag;
  position: number;
  source_path: string | null;
  created_at: Millis;
  updated_at: Millis;
  /** Added by 0013-visibility, 'everyone' for every row before it. */
  visibility: Generated<Visibility>;
  /** Hidden from search engines (0020-article-noindex): the page says noindex and the sitemap leaves it out. */
  noindex: Generated<Flag>;
}

/**
 * What every translation has (0024-translations): its language, its own published state, and the source version's
 * text as it was when the translation was last saved (JSON of TranslationSource), null before it ever was.
 */
interface TranslationColumns {
  lang: string;
  published: Flag;
  source_lang: string | null;
  source_text: string | null;
  created_at: Millis;
  updated_at: Millis;
}

export interface SectionTranslationTable extends TranslationColumns {
  section_id: number;
  name: string;
}

export interface CategoryTranslationTable extends TranslationColumns {
  category_id: number;
  name: string;
  description: string;
  description_source: string | null;
}

export interface ArticleTranslationTable extends TranslationColumns {
  article_id: number;
  title: string;
  body_html: string;
  body_source: string | null;
}

export interface ArticleTranslationFileTable {
  article_id: number;
  lang: string;
  file_id: number;
  position: number;
}

export type FileKind = 'content' | 'upload';

export interface FileTable {
  id: Generated<number>;
  storage_key: string;
  original_name: string;
  mime_type: string;
  size: number;
  kind: FileKind;
  source_path: string | null;
  /** Uploads only: `visitor:<cookie id>` or `user:<id>`. */
  owner_key: string | null;
  created_at: Millis;
}

export interface ArticleFileTable {
  article_id: number;
  file_id: number;
  position: number;
}

export type RevisionAction =
  'created' | 'edited' | 'published' | 'unpublished' | 'restored' | 'imported' | 'moved';

export interface ArticleRevisionTable {
  id: Generated<number>;
  article_id: number;
  /** 1 for an article's first revision, counting up. */
  number: number;
  /** Who saved: null for imports and the CLI. No foreign key, so history outlives a deleted user. */
  user_id: number | null;
  user_name: string | null;
  action: RevisionAction;
  title: string;
  body_html: string;
  published: Flag;
  can_create_issue: Flag;
  lang: string | null;
  section_id: number;
  category_id: number | null;
  /** The attachments in their order, as JSON text: `[3,5]`. */
  file_ids: string;
  restored_from: number | null;
  created_at: Millis;
}

export interface SettingTable {
  key: string;
  value: string;
}

export interface UserTable {
  id: Generated<number>;
  email: string;
  name: string;
  password_hash: string;
  role: Generated<UserRole>;
  /** When the user showed the email is theirs (a link they were sent); null until then. */
  email_verified_at: Millis | null;
  created_at: Millis;
}

export interface AuthTokenTable {
  token_hash: string;
  user_id: number;
  created_at: Millis;
  expires_at: Millis;
}

export interface TicketTable {
  id: Generated<number>;
  title: string;
  description: string;
  name: string;
  email: string;
  channel: string;
  user_id: number | null;
  lang: string;
  created_at: Millis;
  status: Generated<TicketStatus>;
  assignee_id: number | null;
  /** When anything last happened to it (sent, status, assignment); null only before it was first stored. */
  updated_at: Millis | null;
  /**
   * Sent for an address nobody proved: until when the sender's browser cookie (or account) opens it; 0 once the
   * address's owner took it up; null when the address was proved (and for requests from before).
   */
  sender_access_until: Generated<Millis | null>;
}

export interface TicketFileTable {
  ticket_id: number;
  file_id: number;
  position: number;
  /** The message the file came with; null for the request's own files. */
  message_id: number | null;
}

/** A reply or an internal note of the team, or a reply of the requester, after the request itself. */
export interface TicketMessageTable {
  id: Generated<number>;
  ticket_id: number;
  author_id: number | null;
  author_name: string;
  from_team: Flag;
  /** A note for the team only: never shown to the requester, never mailed. */
  internal: Flag;
  body_text: string;
  body_html: string;
  created_at: Millis;
}

/** A private link to one request, for a requester without an account: the token's SHA-256, never the token. */
export interface TicketLinkTable {
  token_hash: string;
  ticket_id: number;
  expires_at: Millis;
  created_at: Millis;
}

/**
 * `email`: the request to SUPPORT_EMAIL; `requester`: a reply of the team to the requester; `team`: the requester's
 * reply to the assignee (or the team); `webhook`: the receiver, for every event.
 */
export type OutboxTarget = 'webhook' | 'email' | 'requester' | 'team';
export type OutboxStatus = 'pending' | 'delivered' | 'failed';

/** What an outbox row delivers: the request itself, one message of its thread, or a change of status (0027). */
export type OutboxKind = 'request' | 'message' | 'status';

export interface OutboxTable {
  id: Generated<number>;
  ticket_id: number;
  kind: OutboxKind;
  /** The message this delivery is about (kind 'message'); null otherwise. */
  message_id: number | null;
  /** The change of status this is about (kind 'status'): its number, 1 for the request's first; null otherwise. */
  status_number: number | null;
  /** The status that change went to (kind 'status'); null otherwise. */
  status_to: TicketStatus | null;
  target: OutboxTarget;
  status: OutboxStatus;
  attempts: number;
  next_attempt_at: Millis;
  locked_until: Millis | null;
  last_error: string | null;
  delivered_at: Millis | null;
  created_at: Millis;
}

/** An account mail waiting to be sent, or sent (migration 0025, mail/account-mail.ts). */
export interface AccountMailTable {
  id: Generated<number>;
  to_address: string;
  /** The kind and what it points at, as JSON (AccountMail); tokens are made when it is sent. */
  mail: string;
  status: OutboxStatus;
  attempts: number;
  next_attempt_at: Millis;
  locked_until: Millis | null;
  last_error: string | null;
  sent_at: Millis | null;
  created_at: Millis;
}

export interface CaptchaUseTable {
  key: string;
  expires_at: Millis;
}

export interface RateLimitTable {
  key: string;
  window_start: Millis;
  count: number;
}

export interface SearchQueryTable {
  query: string;
  searches: number;
  empty_results: number;
  opened: number;
  last_searched_at: Millis;
}

/** Per article and ISO week: suggestions under a request form opened, and requests sent after opening one. */
export interface RequestsAvoidedTable {
  article_id: number;
  /** The week's Monday, YYYY-MM-DD (UTC). */
  week: string;
  opened: number;
  sent: number;
}

export interface ContentChangeTable {
  /** The content revision (settings.content_revision) this change moved to. */
  revision: number;
  /** Space-separated scopes (content/content-changes.ts); `*` is everything. */
  scopes: string;
  created_at: Millis;
}

/** A mail the reply poller decided about, once: added to a thread, or left unread and reported. */
export type MailReplyOutcome = 'stored' | 'unmatched';

export interface MailReplyTable {
  /** SHA-256 of the mail's Message-ID (or of its headers when it has none). */
  mail_key: string;
  outcome: MailReplyOutcome;
  reason: string | null;
  ticket_id: number | null;
  ticket_message_id: number | null;
  sender: string | null;
  subject: string | null;
  created_at: Millis;
}

export interface ArticleFeedbackTable {
  id: Generated<number>;
  article_id: number;
  /** HMAC-SHA256 (hex) of the client's address and the article under the day's salt: one row a visitor a day. */
  visitor_key: string;
  helpful: Flag;
  reason: string | null;
  /** Control characters stripped, email addresses and long numbers masked before it is stored. */
  comment: string | null;
  created_at: Millis;
  updated_at: Millis;
}

/** The current day's random salt of the feedback keys; earlier days' are deleted, never kept. */
export interface FeedbackSaltTable {
  /** YYYY-MM-DD, UTC. */
  day: string;
  salt: string;
}

/** One visitor's choice for a query on a day (0021-search-votes). */
export interface SearchVoteTable {
  query_key: string;
  /** YYYY-MM-DD, UTC. */
  day: string;
  voter: string;
  article_id: number;
}

/** An article's embedding for semantic matching (0023-article-embeddings). */
export interface ArticleEmbeddingTable {
  article_id: number;
  digest: string;
  vector: string;
}

export interface Database {
  sections: SectionTable;
  categories: CategoryTable;
  articles: ArticleTable;
  files: FileTable;
  article_files: ArticleFileTable;
  article_revisions: ArticleRevisionTable;
  settings: SettingTable;
  users: UserTable;
  auth_tokens: AuthTokenTable;
  tickets: TicketTable;
  ticket_files: TicketFileTable;
  ticket_messages: TicketMessageTable;
  ticket_links: TicketLinkTable;
  outbox: OutboxTable;
  account_mails: AccountMailTable;
  captcha_uses: CaptchaUseTable;
  rate_limits: RateLimitTable;
  search_queries: SearchQueryTable;
  content_changes: ContentChangeTable;
  mail_replies: MailReplyTable;
  article_feedback: ArticleFeedbackTable;
  feedback_salts: FeedbackSaltTable;
  search_votes: SearchVoteTable;
  article_embeddings: ArticleEmbeddingTable;
  requests_avoided: RequestsAvoidedTable;
  section_translations: SectionTranslationTable;
  category_translations: CategoryTranslationTable;
  article_translations: ArticleTranslationTable;
  article_translation_files: ArticleTranslationFileTable;
}

export type SectionRow = Selectable<SectionTable>;
export type CategoryRow = Selectable<CategoryTable>;
export type ArticleRow = Selectable<ArticleTable>;
export type SectionTranslationRow = Selectable<SectionTranslationTable>;
export type CategoryTranslationRow = Selectable<CategoryTranslationTable>;
export type ArticleTranslationRow = Selectable<ArticleTranslationTable>;
export type FileRow = Selectable<FileTable>;
export type UserRow = Selectable<UserTable>;
export type ArticleRevisionRow = Selectable<ArticleRevisionTable>;
export type TicketRow = Selectable<TicketTable>;
export type TicketMessageRow = Selectable<TicketMessageTable>;
export type OutboxRow = Selectable<OutboxTable>;
export type AccountMailRow = Selectable<AccountMailTable>;
