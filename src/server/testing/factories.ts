import type { UserRole } from '../../shared/constants.ts';
import type { Insertable } from 'kysely';
import type { AppContext } from '../context.ts';
import type { Executor } from '../db/database.ts';
import type {
  ArticleRow,
  ArticleTable,
  ArticleTranslationRow,
  ArticleTranslationTable,
  CategoryTranslationRow,
  CategoryTranslationTable,
  SectionTranslationRow,
  SectionTranslationTable,
  CategoryRow,
  CategoryTable,
  FileRow,
  SectionRow,
  SectionTable,
  UserRow,
} from '../db/tables.ts';
import { createUser } from '../accounts/accounts.service.ts';
import { createPasswords } from '../accounts/password.ts';
import { contentTypeFor } from '../lib/content-type.ts';
import { touchContent } from '../revisions/revision.repository.ts';

/** Real rows for tests: every factory fills in what a test does not care about and takes the rest as overrides. */

let sequence = 0;
const next = () => ++sequence;
const stamps = () => ({ created_at: Date.now(), updated_at: Date.now() });

/** Every content write bumps the revision (search and caches follow it); factories write content too. */
const touched = async <T>(db: Executor, row: Promise<T>): Promise<T> => {
  const value = await row;
  await touchContent(db);
  return value;
};

export function buildSection(
  db: Executor,
  overrides: Partial<Insertable<SectionTable>> = {},
): Promise<SectionRow> {
  return touched(
    db,
    db
      .insertInto('sections')
      .values({ name: `Section ${next()}`, position: 0, ...stamps(), ...overrides })
      .returningAll()
      .executeTakeFirstOrThrow(),
  );
}

/** The section a row belongs in: the one given, else its category's, else a new one. */
async function sectionFor(db: Executor, sectionId?: number, categoryId?: number | null): Promise<number> {
  if (sectionId !== undefined) return sectionId;
  if (categoryId == null) return (await buildSection(db)).id;
  const category = await db
    .selectFrom('categories')
    .select('section_id')
    .where('id', '=', categoryId)
    .executeTakeFirstOrThrow();
  return category.section_id;
}

/** A category in the given section, or in its parent's. */
export async function buildCategory(
  db: Executor,
  overrides: Partial<Insertable<CategoryTable>> = {},
): Promise<CategoryRow> {
  const sectionId = await sectionFor(db, overrides.section_id, overrides.parent_id);
  return touched(
    db,
    db
      .insertInto('categories')
      .values({
        name: `Category ${next()}`,
        description: '',
        position: 0,
        ...stamps(),
        ...overrides,
        section_id: sectionId,
      })
      .returningAll()
      .executeTakeFirstOrThrow(),
  );
}

/** A published article in the given section, or in its category's. */
export async function buildArticle(
  db: Executor,
  overrides: Partial<Insertable<ArticleTable>> = {},
): Promise<ArticleRow> {
  const sectionId = await sectionFor(db, overrides.section_id, overrides.category_id);
  const n = next();
  return touched(
    db,
    db
      .insertInto('articles')
      .values({
        title: `Article ${n}`,
        body_html: `<p>Body of article ${n}</p>`,
        can_create_issue: 0,
        published: 1,
        position: 0,
        ...stamps(),
        ...overrides,
        section_id: sectionId,
      })
      .returningAll()
      .executeTakeFirstOrThrow(),
  );
}

/** A translation of a section (published unless told otherwise). */
export function buildSectionTranslation(
  db: Executor,
  values: Pick<Insertable<SectionTranslationTable>, 'section_id' | 'lang' | 'name'> &
    Partial<Insertable<SectionTranslationTable>>,
): Promise<SectionTranslationRow> {
  return touched(
    db,
    db
      .insertInto('section_translations')
      .values({ published: 1, ...stamps(), ...values })
      .returningAll()
      .executeTakeFirstOrThrow(),
  );
}

/** A translation of a category (published unless told otherwise). */
export function buildCategoryTranslation(
  db: Executor,
  values: Pick<Insertable<CategoryTranslationTable>, 'category_id' | 'lang' | 'name'> &
    Partial<Insertable<CategoryTranslationTable>>,
): Promise<CategoryTranslationRow> {
  return touched(
    db,
    db
      .insertInto('category_translations')
      .values({ description: '', published: 1, ...stamps(), ...values })
      .returningAll()
      .executeTakeFirstOrThrow(),
  );
}

/** A translation of an article (published unless told otherwise); `fileIds` are its own attachments. */
export async function buildArticleTranslation(
  db: Executor,
  values: Pick<Insertable<ArticleTranslationTable>, 'article_id' | 'lang'> &
    Partial<Insertable<ArticleTranslationTable>> & { fileIds?: number[] },
): Promise<ArticleTranslationRow> {
  const { fileIds = [], ...row } = values;
  const translation = await db
    .insertInto('article_translations')
    .values({
      title: `Article ${row.article_id} (${row.lang})`,
      body_html: `<p>Body of article ${row.article_id} in ${row.lang}</p>`,
      published: 1,
      ...stamps(),
      ...row,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  for (const [position, fileId] of fileIds.entries()) {
    await db
      .insertInto('article_translation_files')
      .values({ article_id: row.article_id, lang: row.lang, file_id: fileId, position })
      .execute();
  }
  return touched(db, Promise.resolve(translation));
}

/** A stored content file; attached to an article when articleId is given. */
export async function buildFile(
  ctx: AppContext,
  input: { name: string; content: string | Buffer; articleId?: number },
): Promise<FileRow> {
  const blob = await ctx.storage.put(Buffer.from(input.content));
  const file = await ctx.db
    .insertInto('files')
    .values({
      storage_key: blob.key,
      original_name: input.name,
      mime_type: contentTypeFor(input.name),
      size: blob.size,
      kind: 'content',
      source_path: null,
      created_at: Date.now(),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  if (input.articleId !== undefined) {
    await ctx.db
      .insertInto('article_files')
      .values({ article_id: input.articleId, file_id: file.id, position: file.id })
      .execute();
  }
  return file;
}

export const DEFAULT_PASSWORD = 'correct horse battery';

/** The tests' cheap cost (as createTestEnvironment gives every test server and command), so that making users takes no time. */
const testPasswords = createPasswords({ scryptN: 1024, hashingConcurrency: 4, hashingQueue: 1000 });

export function buildUser(
  db: Executor,
  overrides: Partial<{ email: string; name: string; password: string; role: UserRole }> = {},
): Promise<UserRow> {
  const n = next();
  return createUser(db, testPasswords, {
    email: `user${n}@example.com`,
    name: `User ${n}`,
    password: DEFAULT_PASSWORD,
    role: 'customer',
    ...overrides,
  });
}

/** Translations into Italian the public site does not show (each of an unpublished article, or its own new row). */
export const hiddenTranslations = {
  section: async (db: Executor) =>
    buildSectionTranslation(db, { section_id: (await buildSection(db)).id, lang: 'it', name: 'Sezione' }),
  category: async (db: Executor, sectionId: number) =>
    buildCategoryTranslation(db, {
      category_id: (await buildCategory(db, { section_id: sectionId })).id,
      lang: 'it',
      name: 'Categoria',
    }),
  article: async (db: Executor, sectionId: number) =>
    buildArticleTranslation(db, {
      article_id: (await buildArticle(db, { section_id: sectionId, published: 0 })).id,
      lang: 'it',
      published: 0,
    }),
};
