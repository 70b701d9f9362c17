import type { Kysely } from 'kysely';
import { type Dialect, idColumn, timeType } from '../schema-helpers.ts';

export function up(dialect: Dialect) {
  return async (db: Kysely<unknown>) => {
    const time = timeType(dialect);

    await db.schema
      .createTable('files')
      .addColumn('id', ...idColumn(dialect))
      .addColumn('storage_key', 'varchar(128)', (c) => c.notNull())
      .addColumn('original_name', 'varchar(255)', (c) => c.notNull())
      .addColumn('mime_type', 'varchar(255)', (c) => c.notNull())
      .addColumn('size', time, (c) => c.notNull())
      .addColumn('kind', 'varchar(16)', (c) => c.notNull())
      .addColumn('source_path', 'varchar(1024)', (c) => c.unique())
      .addColumn('created_at', time, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('files_storage_key').on('files').column('storage_key').execute();

    await db.schema
      .createTable('sections')
      .addColumn('id', ...idColumn(dialect))
      .addColumn('name', 'varchar(255)', (c) => c.notNull())
      .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('source_path', 'varchar(1024)', (c) => c.unique())
      .addColumn('created_at', time, (c) => c.notNull())
      .addColumn('updated_at', time, (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('categories')
      .addColumn('id', ...idColumn(dialect))
      .addColumn('section_id', 'integer', (c) => c.notNull().references('sections.id'))
      .addColumn('parent_id', 'integer', (c) => c.references('categories.id'))
      .addColumn('name', 'varchar(255)', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('description_source', 'text')
      .addColumn('icon_file_id', 'integer', (c) => c.references('files.id'))
      .addColumn('icon_type', 'varchar(8)')
      .addColumn('font_icon', 'varchar(128)')
      .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('source_path', 'varchar(1024)', (c) => c.unique())
      .addColumn('created_at', time, (c) => c.notNull())
      .addColumn('updated_at', time, (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('categories_section')
      .on('categories')
      .columns(['section_id', 'parent_id'])
      .execute();
    await db.schema.createIndex('categories_parent').on('categories').column('parent_id').execute();

    await db.schema
      .createTable('articles')
      .addColumn('id', ...idColumn(dialect))
      .addColumn('section_id', 'integer', (c) => c.notNull().references('sections.id'))
      .addColumn('category_id', 'integer', (c) => c.references('categories.id'))
      .addColumn('title', 'varchar(500)', (c) => c.notNull())
      .addColumn('body_html', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('body_source', 'text')
      .addColumn('lang', 'varchar(16)')
      .addColumn('can_create_issue', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('published', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('source_path', 'varchar(1024)', (c) => c.unique())
      .addColumn('created_at', time, (c) => c.notNull())
      .addColumn('updated_at', time, (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('articles_section')
      .on('articles')
      .columns(['section_id', 'category_id'])
      .execute();
    await db.schema.createIndex('articles_category').on('articles').column('category_id').execute();

    await db.schema
      .createTable('article_files')
      .addColumn('article_id', 'integer', (c) => c.notNull().references('articles.id').onDelete('cascade'))
      .addColumn('file_id', 'integer', (c) => c.notNull().references('files.id').onDelete('cascade'))
      .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
      .addPrimaryKeyConstraint('article_files_pk', ['article_id', 'file_id'])
      .execute();
    await db.schema.createIndex('article_files_file').on('article_files').column('file_id').execute();

    await db.schema
      .createTable('settings')
      .addColumn('key', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('value', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('users')
      .addColumn('id', ...idColumn(dialect))
      .addColumn('email', 'varchar(320)', (c) => c.notNull().unique())
      .addColumn('name', 'varchar(255)', (c) => c.notNull())
      .addColumn('password_hash', 'varchar(512)', (c) => c.notNull())
      .addColumn('is_admin', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', time, (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('auth_tokens')
      .addColumn('token_hash', 'varchar(128)', (c) => c.primaryKey())
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('created_at', time, (c) => c.notNull())
      .addColumn('expires_at', time, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('auth_tokens_user').on('auth_tokens').column('user_id').execute();
  };
}
