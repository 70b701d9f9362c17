import { Type, type Static } from 'typebox';
import { AdminFile, DiffPart, MAX_HTML_BYTES } from './admin.ts';
import { Id } from './common.ts';
import { Language } from './settings.ts';
import { TITLE_MAX } from '../constants.ts';

/**
 * Translations as the team edits them (our addition): a version of a section, category or article in another
 * language than the item's own, saved, published and deleted on its own, and told outdated when its source (the
 * version in the site's language, else the item's own) changed after it was last saved.
 */

const Name = Type.String({ minLength: 1, maxLength: TITLE_MAX });
const Html = Type.String({ maxLength: MAX_HTML_BYTES });
const IsoTime = Type.String({ description: 'ISO 8601' });

export const TranslationParams = Type.Object({ id: Id, lang: Language });
export type TranslationParams = Static<typeof TranslationParams>;

export const PublishTranslationBody = Type.Object({ published: Type.Boolean() });
export type PublishTranslationBody = Static<typeof PublishTranslationBody>;

export const SectionTranslationBody = Type.Object({
  name: Name,
  /** Absent: as it is, or published for a new one (a section has no drafts of its own). */
  published: Type.Optional(Type.Boolean()),
});
export type SectionTranslationBody = Static<typeof SectionTranslationBody>;

export const CategoryTranslationBody = Type.Object({
  name: Name,
  /** Sanitised HTML, as the category editor sends it. */
  description: Type.Optional(Html),
  /** Absent: as it is, or published for a new one. */
  published: Type.Optional(Type.Boolean()),
});
export type CategoryTranslationBody = Static<typeof CategoryTranslationBody>;

export const ArticleTranslationBody = Type.Object({
  title: Name,
  body_html: Type.Optional(Html),
  /** Absent: as it is, or a draft for a new one. */
  published: Type.Optional(Type.Boolean()),
  /** The translation's own attachments in their order (files from POST /api/admin/files). */
  file_ids: Type.Optional(Type.Array(Id, { maxItems: 100 })),
});
export type ArticleTranslationBody = Static<typeof ArticleTranslationBody>;

/** The text a translation is made from, by field: name; name and description; title and body_html. */
export const SourceText = Type.Record(Type.String(), Type.String());
export type SourceText = Static<typeof SourceText>;

/** What changed in one field of the source since the translation was last saved. */
export const SourceFieldDiff = Type.Object({ field: Type.String(), parts: Type.Array(DiffPart) });
export type SourceFieldDiff = Static<typeof SourceFieldDiff>;

const TranslationCommon = {
  /** The item's own language (pinned); the translation's language is `lang`. */
  item_lang: Language,
  lang: Language,
  /** False while there is no translation in this language yet (the fields are then empty). */
  exists: Type.Boolean(),
  published: Type.Boolean(),
  outdated: Type.Boolean(),
  updated_at: Type.Union([IsoTime, Type.Null()]),
  /** The source version: its language and its current text. */
  source: Type.Object({ lang: Language, text: SourceText }),
  /**
   * The source's changes since the translation was last saved, per field that changed (title and name word by word,
   * bodies and descriptions line by line); empty when it is not outdated, or when it was never saved against one.
   */
  source_diff: Type.Array(SourceFieldDiff),
  /** The source's language when the translation was last saved (null before). */
  saved_source_lang: Type.Union([Language, Type.Null()]),
};

export const SectionTranslationView = Type.Object({
  section_id: Type.Integer(),
  ...TranslationCommon,
  name: Type.String(),
});
export type SectionTranslationView = Static<typeof SectionTranslationView>;

export const CategoryTranslationView = Type.Object({
  category_id: Type.Integer(),
  ...TranslationCommon,
  name: Type.String(),
  description: Type.String(),
});
export type CategoryTranslationView = Static<typeof CategoryTranslationView>;

export const ArticleTranslationView = Type.Object({
  article_id: Type.Integer(),
  ...TranslationCommon,
  title: Type.String(),
  body_html: Type.String(),
  files: Type.Array(AdminFile),
  /** The source's attachments, for reference beside the translation's own. */
  source_files: Type.Array(AdminFile),
});
export type ArticleTranslationView = Static<typeof ArticleTranslationView>;

// ---- the status page ----

export const TranslationStatusQuery = Type.Object({
  /** The language whose missing and outdated items are listed; the first other than the site's when absent. */
  lang: Type.Optional(Language),
});
export type TranslationStatusQuery = Static<typeof TranslationStatusQuery>;

export const TranslationKind = Type.Union([
  Type.Literal('section'),
  Type.Literal('category'),
  Type.Literal('article'),
]);
export type TranslationKind = Static<typeof TranslationKind>;

export const TranslationStatusItem = Type.Object({
  kind: TranslationKind,
  id: Type.Integer(),
  /** The title or name of the source version. */
  title: Type.String(),
  /** The source version's language. */
  source_lang: Language,
  /** Whether the item itself is published (articles; sections and categories always true). */
  item_published: Type.Boolean(),
  /** For outdated ones: when the translation was last saved. */
  updated_at: Type.Union([IsoTime, Type.Null()]),
});
export type TranslationStatusItem = Static<typeof TranslationStatusItem>;

export const TranslationCounts = Type.Object({
  lang: Language,
  /** Items with no version in this language (for the site's language: those written only in others). */
  missing: Type.Integer(),
  outdated: Type.Integer(),
  /** Translations in this language not yet published. */
  unpublished: Type.Integer(),
  /** Up to date and published. */
  done: Type.Integer(),
});
export type TranslationCounts = Static<typeof TranslationCounts>;

/** Items listed per kind are capped at this many; the counts are whole. */
export const TRANSLATION_STATUS_LIMIT = 500;

export const TranslationStatus = Type.Object({
  /** The site's language, the source of every translation. */
  site: Language,
  counts: Type.Array(TranslationCounts),
  lang: Language,
  missing: Type.Array(TranslationStatusItem),
  outdated: Type.Array(TranslationStatusItem),
});
export type TranslationStatus = Static<typeof TranslationStatus>;
