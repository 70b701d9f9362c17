import { sql } from 'kysely';
import type { Executor } from '../db/database.ts';

/** Every published translation's language, with the articles' (pinned or own) languages of published articles. */
export async function listContentLanguages(db: Executor): Promise<string[]> {
  const rows = await sql<{ lang: string }>`
    select lang from article_translations where published = 1
    union select lang from section_translations where published = 1
    union select lang from category_translations where published = 1
    union select lang from articles where published = 1 and lang is not null
  `.execute(db);
  return rows.rows.map((row) => row.lang);
}
