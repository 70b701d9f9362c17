/** Numbers of the specification both sides need; free of schema code so the web bundle stays small. */
export const CATEGORY_PAGE_SIZE = 30;
export const CATEGORY_PAGE_SIZE_MAX = 100;
export const ARTICLE_PAGE_SIZE = 100;
/**
 * The article page's sidebar lists its section's articles up to this many; past it, the articles around it in its
 * own category (or among the section's articles outside any; its section's when it is alone there), with a link to
 * all of them.
 */
export const SIDEBAR_ARTICLES = 20;
/** Articles the article page offers as related: what its title finds, less itself and the pager's two. */
export const RELATED_ARTICLES = 4;
export const ARTICLE_PAGE_SIZE_MAX = 500;
export const SUGGESTIONS_LIMIT = 10;
export const SUGGESTIONS_LIMIT_MAX = 50;
/** The longest search, wherever one is typed: the site's box, the inbox's, a synonym's query. */
export const SEARCH_TEXT_MAX = 200;
/**
 * The longest title or name of content: a section's, category's or article's and their translations', the help
 * centre's and the site's titles.
 */
export const TITLE_MAX = 200;
/** The longest analytics project id the branding keeps. */
export const PROJECT_ID_MAX = 200;
export const SEARCH_DEBOUNCE_MS = 500;
/** How many suggested articles one request may say were opened before it was sent. */
export const OPENED_SUGGESTIONS_MAX = 20;
/** The weeks the search report's requests-avoided table covers, unless asked for another number (up to the max). */
export const SEARCH_REPORT_WEEKS = 12;
export const SEARCH_REPORT_WEEKS_MAX = 52;
/** The spec's 5 seconds after a support request is sent: the 'Sent' toast, and the disabled 'Sent' button. */
export const REQUEST_TOAST_MS = 5000;
export const SENT_STATE_MS = 5000;
export const AUTH_HEADER = 'x-auth-token';
/**
 * The session's token again, as an HttpOnly, SameSite=Lax cookie set at sign-in: it identifies the visitor on GET
 * requests (pages rendered for them, their calls), never on writes, which keep requiring AUTH_HEADER.
 */
export const SESSION_COOKIE = 'signpost_session';
export const LANGUAGES = ['en', 'ru', 'pt-BR', 'it', 'sk'] as const;
export type Language = (typeof LANGUAGES)[number];
export const UPLOAD_FILE_MAX_BYTES = 25 * 1024 * 1024;
export const ISSUE_FILES_MAX = 10;
export const ISSUE_TITLE_MAX = 500;
/** The longest name of a person: an account's, and a request's sender's (ISSUE_NAME_MAX). */
export const PERSON_NAME_MAX = 200;
export const ISSUE_NAME_MAX = PERSON_NAME_MAX;
export const ISSUE_DESCRIPTION_MAX = 20_000;

/**
 * Who may read a section, category or article: everyone, or signed-in visitors with a confirmed email only. What a
 * visitor may not read is absent for them everywhere (lists, counts, search, files); a direct link asks them to sign in.
 */
export const VISIBILITIES = ['everyone', 'signed_in'] as const;
export type Visibility = (typeof VISIBILITIES)[number];

/** Who a user is: admin (everything), agent (the team's inbox), customer (a visitor with an account). */
export const USER_ROLES = ['admin', 'agent', 'customer'] as const;
export type UserRole = (typeof USER_ROLES)[number];
/** The roles of the team, who work in the admin app. */
export const TEAM_ROLES: readonly UserRole[] = ['admin', 'agent'];

/**
 * Where a request stands for the team: new (nobody has acted), open (someone is on it), waiting (for the customer),
 * solved (the team thinks so; it can be reopened), closed (done for good: a new question is a new request).
 */
export const TICKET_STATUSES = ['new', 'open', 'waiting', 'solved', 'closed'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];
/** The moves between statuses the team may make; anything else is refused (409). */
export const TICKET_TRANSITIONS: Record<TicketStatus, readonly TicketStatus[]> = {
  new: ['open', 'waiting', 'solved', 'closed'],
  open: ['waiting', 'solved', 'closed'],
  waiting: ['open', 'solved', 'closed'],
  solved: ['open', 'closed'],
  closed: [],
};

/**
 * A category's `font_icon`: class names of Font Awesome (`fa fa-credit-card`, `fa-solid fa-wifi`), lowercase as its
 * classes are, separated by single spaces. Nothing else can reach the tile's `class` attribute.
 */
export const FONT_ICON_MAX = 100;
export const FONT_ICON_PATTERN = '^[a-z0-9-]+( [a-z0-9-]+){0,7}$';
const FONT_ICON_RE = new RegExp(FONT_ICON_PATTERN);
export const isFontIcon = (value: string) => value.length <= FONT_ICON_MAX && FONT_ICON_RE.test(value);
/** What a person types, spaces tidied, so `  fa   fa-wifi ` is accepted as `fa fa-wifi`. */
export const tidyFontIcon = (value: string) => value.trim().replace(/\s+/g, ' ');

/** A synonym set lists words or phrases that mean the same; at most this many sets per language. */
export const SYNONYM_SETS_MAX = 500;
/** Phrases in one set: two at least, or the set says nothing. */
export const SYNONYM_PHRASES_MIN = 2;
export const SYNONYM_PHRASES_MAX = 12;
export const SYNONYM_PHRASE_MAX = 60;
/** Words in one phrase: a longer one is a sentence, not a way of saying a thing. */
export const SYNONYM_PHRASE_WORDS_MAX = 4;
