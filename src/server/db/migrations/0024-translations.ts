import type { Kysely } from 'kysely';
import { type Dialect, timeType } from '../schema-helpers.ts';

/**
 * Versions of sections, categories and articles in other languages than their own. The row itself stays the item
 * and its first version: what belongs to the item (place, position, visibility, `can_create_issue`, `noindex`)
 * lives only there. A translation has its own text, files and published state, and a snapshot of the source
 * version's text as it was when the translation was last saved (`source_lang`, `source_text`, JSON), from which
 * the admin app tells that it is outdated and shows what changed since.
 *
 * Sections and categories get the `lang` articles already had: null is "the site's language" (as before), and an
 * item's own language is pinned the first time it is translated, so that changing the site's language re-points
 * the fallback rather than relabelling what was written.
 */
export function up(dialect: Dialect) {
  return async (db: Kysely<unknown>) => {
    const time = timeType(dialect);
    await db.schema.alterTable('sections').addColumn('lang', 'varchar(16)').execute();
    await db.schema.alterTable('categories').addColumn('lang', 'varchar(16)').execute();

    await db.schema
      .createTable('section_translations')
      .addColumn('section_id', 'integer', (c) => c.notNull().references('sections.id').onDelete('cascade'))
      .addColumn('lang', 'varchar(16)', (c) => c.notNull())
      .addColumn('name', 'varchar(255)', (c) => c.notNull())
      .addColumn('published', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('source_lang', 'varchar(16)')
      .addColumn('source_text', 'text')
      .addColumn('created_at', time, (c) => c.notNull())
      .addColumn('updated_at', time, (c) => c.notNull())
      .addPrimaryKeyConstraint('section_translations_pkey', ['section_id', 'lang'])
      .execute();

    await db.schema
      .createTable('category_translations')
      .addColumn('category_id', 'integer', (c) => c.notNull().references('categories.id').onDelete('cascade'))
      .addColumn('lang', 'varchar(16)', (c) => c.notNull())
      .addColumn('name', 'varchar(255)', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('description_source', 'text')
      .addColumn('published', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('source_lang', 'varchar(16)')
      .addColumn('source_text', 'text')
      .addColumn('created_at', time, (c) => c.notNull())
      .addColumn('updated_at', time, (c) => c.notNull())
      .addPrimaryKeyConstraint('category_translations_pkey', ['category_id', 'lang'])
      .execute();

    await db.schema
      .createTable('article_translations')
      .addColumn('article_id', 'integer', (c) => c.notNull().references('articles.id').onDelete('cascade'))
      .addColumn('lang', 'varchar(16)', (c) => c.notNull())
      .addColumn('title', 'varchar(500)', (c) => c.notNull())
      .addColumn('body_html', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('body_source', 'text')
      .addColumn('published', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('source_lang', 'varchar(16)')
      .addColumn('source_text', 'text')
      .addColumn('created_at', time, (c) => c.notNull())
      .addColumn('updated_at', time, (c) => c.notNull())
      .addPrimaryKeyConstraint('article_translations_pkey', ['article_id', 'lang'])
      .execute();
    await db.schema
      .createIndex('article_translations_published')
      .on('article_translations')
      .columns(['published', 'article_id'])
      .execute();

    await db.schema
      .createTable('article_translation_files')
      .addColumn('article_id', 'integer', (c) => c.notNull())
      .addColumn('lang', 'varchar(16)', (c) => c.notNull())
      .addColumn('file_id', 'integer', (c) => c.notNull().references('files.id').onDelete('cascade'))
      .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
      .addPrimaryKeyConstraint('article_translation_files_pkey', ['article_id', 'lang', 'file_id'])
      .addForeignKeyConstraint(
        'article_translation_files_translation',
        ['article_id', 'lang'],
        'article_translations',
        ['article_id', 'lang'],
        (c) => c.onDelete('cascade'),
      )
      .execute();
    await db.schema
      .createIndex('article_translation_files_file')
      .on('article_translation_files')
      .column('file_id')
      .execute();
  };
}
