import { Type, type Static } from 'typebox';
import {
  FONT_ICON_MAX,
  FONT_ICON_PATTERN,
  PERSON_NAME_MAX,
  PROJECT_ID_MAX,
  TITLE_MAX,
} from '../constants.ts';
import { UserRoleSchema } from './auth.ts';
import { Id, Paged } from './common.ts';
import { FOOTER_LINKS_MAX } from '../footer-links.ts';
import { BrandingTitles, FooterLink, Language } from './settings.ts';

/**
 * The authoring contract: what the admin app at /admin (and any script with an admin's token) reads and writes.
 * Every call needs the x-auth-token of a user with the admin flag: 401 without a valid token, 403 for others.
 */

/** Stored article bodies and category descriptions are limited to this many UTF-8 bytes (checked on the server). */
export const MAX_HTML_BYTES = 1_048_576;

/** A section's or category's name, an article's title. */
const Name = Type.String({ minLength: 1, maxLength: TITLE_MAX });
const PersonName = Type.String({ minLength: 1, maxLength: PERSON_NAME_MAX });
const Html = Type.String({ maxLength: MAX_HTML_BYTES });
const Position = Type.Integer({ minimum: 0, maximum: 1_000_000 });
const NullableId = Type.Union([Id, Type.Null()]);
const IsoTime = Type.String({ description: 'ISO 8601' });
/** Who may read it: 'everyone', or 'signed_in' (signed-in visitors with a confirmed email; see VISIBILITIES). */
export const VisibilitySchema = Type.Union([Type.Literal('everyone'), Type.Literal('signed_in')]);
const FontIcon = Type.Union([
  Type.String({ maxLength: FONT_ICON_MAX, pattern: FONT_ICON_PATTERN }),
  Type.Null(),
]);

/** One translation of an item, as the item's admin answers list them (our addition). */
export const TranslationSummary = Type.Object({
  lang: Language,
  published: Type.Boolean(),
  /** The source (the version in the site's language, else the item's own) changed since it was last saved. */
  outdated: Type.Boolean(),
  updated_at: IsoTime,
});
export type TranslationSummary = Static<typeof TranslationSummary>;
/** The item's translations, in the order of LANGUAGES; none for a language is "missing". */
const Translations = Type.Array(TranslationSummary);
/** The item's own language (pinned the first time it is translated); null means the help centre's. */
const OwnLang = Type.Union([Language, Type.Null()]);

export const AdminSection = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  position: Type.Integer(),
  visibility: VisibilitySchema,
  updated_at: IsoTime,
  lang: Type.Optional(OwnLang),
  translations: Type.Optional(Translations),
});
export type AdminSection = Static<typeof AdminSection>;

export const AdminCategory = Type.Object({
  id: Type.Integer(),
  section_id: Type.Integer(),
  parent_id: Type.Union([Type.Integer(), Type.Null()]),
  name: Type.String(),
  /** Sanitised HTML, as the public site shows it. */
  description: Type.String(),
  position: Type.Integer(),
  icon_type: Type.Union([Type.Literal('file'), Type.Literal('font'), Type.Null()]),
  font_icon: Type.Union([Type.String(), Type.Null()]),
  icon_url: Type.Union([Type.String(), Type.Null()]),
  visibility: VisibilitySchema,
  updated_at: IsoTime,
  lang: Type.Optional(OwnLang),
  translations: Type.Optional(Translations),
});
export type AdminCategory = Static<typeof AdminCategory>;

export const AdminArticleSummary = Type.Object({
  id: Type.Integer(),
  section_id: Type.Integer(),
  category_id: Type.Union([Type.Integer(), Type.Null()]),
  title: Type.String(),
  position: Type.Integer(),
  published: Type.Boolean(),
  can_create_issue: Type.Boolean(),
  /** Its own setting; where it sits may restrict it further (a section or category for signed-in visitors). */
  visibility: VisibilitySchema,
  updated_at: IsoTime,
});
export type AdminArticleSummary = Static<typeof AdminArticleSummary>;

/** Everything the tree shows, flat: the client nests categories by parent_id and articles by category_id. */
export const AdminTree = Type.Object({
  sections: Type.Array(AdminSection),
  categories: Type.Array(AdminCategory),
  articles: Type.Array(AdminArticleSummary),
});
export type AdminTree = Static<typeof AdminTree>;

export const AdminFile = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  size: Type.Integer(),
  mime_type: Type.String(),
  /** Where the file downloads; for files of drafts and unattached uploads it answers only to admins. */
  url: Type.String(),
});
export type AdminFile = Static<typeof AdminFile>;

export const AdminArticle = Type.Object({
  ...AdminArticleSummary.properties,
  /** Sanitised HTML, as stored and as the public site shows it. */
  body_html: Type.String(),
  /** The article's own language; null means the help centre's. */
  lang: Type.Union([Language, Type.Null()]),
  /** Hidden from search engines (see ArticleFields.noindex). */
  noindex: Type.Boolean(),
  files: Type.Array(AdminFile),
  /** The newest revision: send it back as base_revision_id so a save over someone else's is refused (409). */
  revision_id: Type.Integer(),
  created_at: IsoTime,
  translations: Translations,
});
export type AdminArticle = Static<typeof AdminArticle>;

// ---- sections ----

export const SectionCreateBody = Type.Object({
  name: Name,
  /** Where among the sections; at the end when absent. */
  position: Type.Optional(Position),
  visibility: Type.Optional(VisibilitySchema),
});
export type SectionCreateBody = Static<typeof SectionCreateBody>;

export const SectionUpdateBody = Type.Object({
  name: Type.Optional(Name),
  visibility: Type.Optional(VisibilitySchema),
});
export type SectionUpdateBody = Static<typeof SectionUpdateBody>;

/**
 * What becomes of what is inside a section or category being deleted. Without either, deleting something that is
 * not empty is refused with 409 `not_empty`.
 */
export const DeleteQuery = Type.Object({
  /** Delete everything inside too. */
  content: Type.Optional(Type.Literal('delete')),
  /** Move what is inside to this section (top level) first. */
  move_to_section_id: Type.Optional(Id),
  /** Move what is inside into this category first. */
  move_to_category_id: Type.Optional(Id),
});
export type DeleteQuery = Static<typeof DeleteQuery>;

// ---- categories ----

export const CategoryCreateBody = Type.Object({
  section_id: Id,
  parent_id: Type.Optional(NullableId),
  name: Name,
  description: Type.Optional(Html),
  font_icon: Type.Optional(FontIcon),
  /** An image from POST /api/admin/files to show as the category's icon; null removes it. */
  icon_file_id: Type.Optional(NullableId),
  position: Type.Optional(Position),
  visibility: Type.Optional(VisibilitySchema),
});
export type CategoryCreateBody = Static<typeof CategoryCreateBody>;

export const CategoryUpdateBody = Type.Object({
  name: Type.Optional(Name),
  description: Type.Optional(Html),
  font_icon: Type.Optional(FontIcon),
  icon_file_id: Type.Optional(NullableId),
  visibility: Type.Optional(VisibilitySchema),
});
export type CategoryUpdateBody = Static<typeof CategoryUpdateBody>;

// ---- articles ----

const ArticleFields = {
  title: Name,
  body_html: Html,
  published: Type.Boolean(),
  can_create_issue: Type.Boolean(),
  lang: Type.Union([Language, Type.Null()]),
  visibility: VisibilitySchema,
  /** Hidden from search engines: readers still see it; its page asks not to be indexed and no sitemap lists it. */
  noindex: Type.Boolean(),
  /** Attachments in their order: files from POST /api/admin/files or already attached. */
  file_ids: Type.Array(Id, { maxItems: 100 }),
};

const OptionalArticleFields = Type.Partial(Type.Object(ArticleFields)).properties;

export const ArticleCreateBody = Type.Object({
  section_id: Id,
  category_id: Type.Optional(NullableId),
  // Keeps its place among the fields below; only the title is required.
  ...OptionalArticleFields,
  title: ArticleFields.title,
  position: Type.Optional(Position),
});
export type ArticleCreateBody = Static<typeof ArticleCreateBody>;

export const ArticleUpdateBody = Type.Object({
  ...OptionalArticleFields,
  /** The revision the editor started from; when another save came since, the answer is 409 `conflict`. */
  base_revision_id: Type.Optional(Id),
});
export type ArticleUpdateBody = Static<typeof ArticleUpdateBody>;

// ---- moving and ordering ----

/**
 * Puts one item at `index` among its siblings (0 = first), optionally under a new parent; siblings are renumbered.
 * Sections: siblings are all sections. Categories: same section_id and parent_id (a category moves with everything
 * inside it; it cannot go inside itself). Articles: same section_id and category_id.
 */
export const MoveBody = Type.Object({
  kind: Type.Union([Type.Literal('section'), Type.Literal('category'), Type.Literal('article')]),
  id: Id,
  /** Categories and articles: the section to be in (defaults to the current one). */
  section_id: Type.Optional(Id),
  /** Categories: the parent category; articles: the category; null for the section's top level. */
  parent_id: Type.Optional(NullableId),
  index: Type.Integer({ minimum: 0, maximum: 1_000_000 }),
});
export type MoveBody = Static<typeof MoveBody>;

// ---- revisions ----

export const RevisionSummary = Type.Object({
  id: Type.Integer(),
  /** 1 for the first save of the article, counting up. */
  number: Type.Integer(),
  created_at: IsoTime,
  author: Type.Union([Type.Object({ id: Type.Integer(), name: Type.String() }), Type.Null()]),
  /** What the save was: 'created', 'edited', 'published', 'unpublished', 'restored', 'imported', 'moved'. */
  action: Type.String(),
  /** The revision this one restored, when action is 'restored'. */
  restored_from: Type.Union([Type.Integer(), Type.Null()]),
  title: Type.String(),
  published: Type.Boolean(),
});
export type RevisionSummary = Static<typeof RevisionSummary>;

export const Revision = Type.Object({
  ...RevisionSummary.properties,
  body_html: Type.String(),
  can_create_issue: Type.Boolean(),
  lang: Type.Union([Language, Type.Null()]),
  file_ids: Type.Array(Type.Integer()),
});
export type Revision = Static<typeof Revision>;

export const RevisionList = Type.Object({ items: Type.Array(RevisionSummary) });

/** HTML to preview as a save would store it. */
export const HtmlPreviewBody = Type.Object({ html: Html });
export type HtmlPreviewBody = Static<typeof HtmlPreviewBody>;
export const HtmlPreview = Type.Object({ html: Type.String() });
export type HtmlPreview = Static<typeof HtmlPreview>;

/**
 * An article, saved or not, to draw as its public page would be once published: where it sits, what it says and
 * what is attached. Nothing is stored.
 */
export const ArticlePreviewBody = Type.Object({
  /** The article being edited, so the page stands in its place; absent or null for one not yet saved. */
  article_id: Type.Optional(NullableId),
  section_id: Id,
  category_id: NullableId,
  /** Empty while a new article has no title yet. */
  title: Type.String({ maxLength: TITLE_MAX }),
  body_html: Html,
  can_create_issue: Type.Boolean(),
  file_ids: ArticleFields.file_ids,
});
export type ArticlePreviewBody = Static<typeof ArticlePreviewBody>;
/** The public page as a whole HTML document, without scripts: for a frame that runs none. */
export const ArticlePreview = Type.Object({ document: Type.String() });
export type ArticlePreview = Static<typeof ArticlePreview>;
export type RevisionList = Static<typeof RevisionList>;

export const RevisionParams = Type.Object({ id: Id, revision: Id });

export const RevisionDiffQuery = Type.Object({ from: Id, to: Id });

/** Runs of text the same in both, only in `to` (insert) or only in `from` (delete). */
export const DiffPart = Type.Object({
  op: Type.Union([Type.Literal('equal'), Type.Literal('insert'), Type.Literal('delete')]),
  text: Type.String(),
});
export type DiffPart = Static<typeof DiffPart>;

export const RevisionDiff = Type.Object({
  from: RevisionSummary,
  to: RevisionSummary,
  /** Word by word over the title. */
  title: Type.Array(DiffPart),
  /** Line by line over the body's HTML, one tag per line where the HTML allows. */
  body: Type.Array(DiffPart),
  /** Other fields that differ, by name, e.g. { published: { from: false, to: true } }. */
  fields: Type.Record(Type.String(), Type.Object({ from: Type.Unknown(), to: Type.Unknown() })),
});
export type RevisionDiff = Static<typeof RevisionDiff>;

// ---- files ----

/** POST /api/admin/files takes multipart `file` parts (up to 10, 25 MB each) and answers the stored files. */
export const AdminFileList = Type.Object({ items: Type.Array(AdminFile) });
export type AdminFileList = Static<typeof AdminFileList>;

// ---- branding ----

export const BrandingUpdateBody = Type.Object({
  knowledge_title: Type.Optional(Type.String({ maxLength: TITLE_MAX })),
  site_title: Type.Optional(Type.String({ maxLength: TITLE_MAX })),
  lang: Type.Optional(Language),
  knowledge_enabled: Type.Optional(Type.Boolean()),
  portal_enabled: Type.Optional(Type.Boolean()),
  project_id: Type.Optional(Type.Union([Type.String({ maxLength: PROJECT_ID_MAX }), Type.Null()])),
  /** An image from POST /api/admin/files; null removes the logo. */
  logo_file_id: Type.Optional(NullableId),
  background_file_id: Type.Optional(NullableId),
  /** The footer's links as a whole, in order; [] removes them. */
  footer_links: Type.Optional(Type.Array(FooterLink, { maxItems: FOOTER_LINKS_MAX })),
  /** The titles per language other than `lang`, as a whole; {} removes them. Empty titles fall back. */
  titles: Type.Optional(
    Type.Partial(
      Type.Object(
        {
          en: BrandingTitles,
          ru: BrandingTitles,
          'pt-BR': BrandingTitles,
          it: BrandingTitles,
          sk: BrandingTitles,
        },
        { additionalProperties: false },
      ),
    ),
  ),
});
export type BrandingUpdateBody = Static<typeof BrandingUpdateBody>;

// ---- users ----

export const AdminUser = Type.Object({
  id: Type.Integer(),
  email: Type.String(),
  name: Type.String(),
  role: UserRoleSchema,
  email_verified: Type.Boolean(),
  /** Invited by the team and not yet accepted: no password chosen, the email not confirmed. */
  invited: Type.Boolean(),
  created_at: IsoTime,
});
export type AdminUser = Static<typeof AdminUser>;

export const AdminUserList = Paged(AdminUser);

/** The team (admins and agents) or the customers, a page at a time. */
export const UserListQuery = Type.Object({
  group: Type.Optional(Type.Union([Type.Literal('team'), Type.Literal('customers')])),
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
});
export type UserListQuery = Static<typeof UserListQuery>;
export const USERS_PAGE_SIZE = 50;
export type AdminUserList = Static<typeof AdminUserList>;

const Email = Type.String({ minLength: 3, maxLength: 320 });
/** At least 8 characters, as for `signpost user add`. */
const NewPassword = Type.String({ minLength: 8, maxLength: 1024 });

export const UserCreateBody = Type.Object({
  email: Email,
  name: PersonName,
  password: NewPassword,
  /** customer when not given. */
  role: Type.Optional(UserRoleSchema),
});
export type UserCreateBody = Static<typeof UserCreateBody>;

/** A customer to invite; an address whose account is not yet accepted gets a fresh link. */
export const InviteBody = Type.Object({ email: Email, name: PersonName });
export type InviteBody = Static<typeof InviteBody>;

/** An admin cannot take away their own admin flag or delete themselves, and the last admin stays. */
export const UserUpdateBody = Type.Object({
  name: Type.Optional(PersonName),
  password: Type.Optional(NewPassword),
  role: Type.Optional(UserRoleSchema),
});
export type UserUpdateBody = Static<typeof UserUpdateBody>;

export const IdParams = Type.Object({ id: Id });
