import { Type, type Static, type TProperties } from 'typebox';
import { Id, PageNumber, Paged } from './common.ts';
import { Language } from './settings.ts';

import { ARTICLE_PAGE_SIZE_MAX, CATEGORY_PAGE_SIZE_MAX, SEARCH_TEXT_MAX } from '../constants.ts';

export {
  ARTICLE_PAGE_SIZE,
  ARTICLE_PAGE_SIZE_MAX,
  CATEGORY_PAGE_SIZE,
  CATEGORY_PAGE_SIZE_MAX,
} from '../constants.ts';

export const FileRef = Type.Object({
  id: Type.Integer(),
  original_name: Type.String(),
  file_size: Type.Integer({ minimum: 0, description: 'bytes' }),
  link: Type.String(),
});
export type FileRef = Static<typeof FileRef>;

/**
 * Our addition to every item: the language its text is in. The reader asked for one (`?lang=`); where the item
 * has no version in it, this says which it is shown in instead (the site's, else the item's own).
 */
const ShownLanguage = Language;

/** `?lang=` on every public call: answer in that language, falling back where the content has no version in it. */
export const LangQuery = Type.Object({ lang: Type.Optional(Language) });
export type LangQuery = Static<typeof LangQuery>;

export const Section = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  lang: ShownLanguage,
  count_category: Type.Integer({ minimum: 0, description: 'visible top-level categories' }),
  count_instruction: Type.Integer({ minimum: 0, description: 'published articles directly in the section' }),
});
export type Section = Static<typeof Section>;

export const IconType = Type.Union([Type.Literal('file'), Type.Literal('font')]);
export type IconType = Static<typeof IconType>;

export const Category = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  lang: ShownLanguage,
  section_id: Type.Integer(),
  parent_id: Type.Union([Type.Integer(), Type.Null()]),
  description: Type.String({ description: 'sanitised HTML' }),
  icon: Type.Union([FileRef, Type.Null()]),
  icon_type: Type.Union([IconType, Type.Null()]),
  font_icon: Type.Union([Type.String(), Type.Null()]),
  count_instruction: Type.Integer({ minimum: 0, description: 'published articles directly in the category' }),
  count_category: Type.Integer({ minimum: 0, description: 'visible child categories' }),
});
export type Category = Static<typeof Category>;

/** An article as the bundle lists it: everything but the body and the files. */
export const InstructionSummary = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  lang: ShownLanguage,
  section_id: Type.Integer(),
  category_id: Type.Union([Type.Integer(), Type.Null()]),
  can_create_issue: Type.Boolean(),
});
export type InstructionSummary = Static<typeof InstructionSummary>;

export const Instruction = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  lang: ShownLanguage,
  description: Type.String({ description: 'sanitised HTML' }),
  section_id: Type.Integer(),
  category_id: Type.Union([Type.Integer(), Type.Null()]),
  can_create_issue: Type.Boolean(),
  files: Type.Array(FileRef),
  /** Our additions: when it was written and last changed (ISO 8601), for the page and search engines. */
  created_at: Type.String({ description: 'ISO 8601' }),
  updated_at: Type.String({ description: 'ISO 8601' }),
  /** The team hid it from search engines: its page asks not to be indexed and the sitemap leaves it out. */
  noindex: Type.Boolean(),
});
export type Instruction = Static<typeof Instruction>;

export const SectionList = Type.Array(Section);

/** A list call's query: a text filter, the page, and where to look (the fields given). */
const listQuery = <Where extends TProperties>(perPageMax: number, where: Where) =>
  Type.Object({
    query: Type.Optional(Type.String({ maxLength: SEARCH_TEXT_MAX })),
    page: Type.Optional(PageNumber),
    per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: perPageMax })),
    lang: Type.Optional(Language),
    ...where,
  });

export const CategoryListQuery = listQuery(CATEGORY_PAGE_SIZE_MAX, {
  category_parent_id: Type.Optional(Id),
  section_id: Type.Optional(Id),
});
export type CategoryListQuery = Static<typeof CategoryListQuery>;
export const CategoryList = Paged(Category);

export const InstructionListQuery = listQuery(ARTICLE_PAGE_SIZE_MAX, {
  category_id: Type.Optional(Id),
  section_id: Type.Optional(Id),
});
export type InstructionListQuery = Static<typeof InstructionListQuery>;
export const InstructionBundle = Paged(InstructionSummary);
export const InstructionPage = Paged(Instruction);

export const InstructionParams = Type.Object({ id: Id });

/** An article as a list of links shows it. */
export const ArticleLink = Type.Object({ id: Type.Integer(), title: Type.String(), lang: ShownLanguage });
export type ArticleLink = Static<typeof ArticleLink>;

/**
 * Our addition: what the article page shows around an article, so that it need not load every article. The
 * sidebar's list (the article among them) is its section's articles, or past SIDEBAR_ARTICLES those around it in
 * its own category (or among the section's articles outside any; for an article alone there, in its section): then
 * `all` says how many there are and where (a null category_id: the section on the home page).
 */
export const InstructionNearby = Type.Object({
  siblings: Type.Array(ArticleLink),
  all: Type.Union([
    Type.Null(),
    Type.Object({
      total: Type.Integer({ minimum: 0 }),
      section_id: Type.Integer(),
      category_id: Type.Union([Type.Integer(), Type.Null()]),
    }),
  ]),
  /** Before and after it in its category (or among the section's articles outside any), in their order. */
  previous: Type.Union([ArticleLink, Type.Null()]),
  next: Type.Union([ArticleLink, Type.Null()]),
  /** Up to RELATED_ARTICLES others its title's words find, not the previous or next. */
  related: Type.Array(ArticleLink),
});
export type InstructionNearby = Static<typeof InstructionNearby>;
