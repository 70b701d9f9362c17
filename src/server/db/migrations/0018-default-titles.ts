import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../schema-helpers.ts';

/**
 * An empty help-centre title or site title now means "the interface's default, in the site's language". Until now
 * every saved branding stored the English defaults (the demo wrote them too), so a Russian site showed English:
 * those exact English texts are cleared, which changes nothing on an English site and translates the others.
 */
export function up(_dialect: Dialect) {
  return async (db: Kysely<unknown>) => {
    const row = await sql<{ value: string }>`select value from settings where key = 'branding'`.execute(db);
    const stored = row.rows[0];
    if (!stored) return;
    const branding = JSON.parse(stored.value) as Record<string, unknown>;
    if (branding.knowledge_title === 'How can we help you?') branding.knowledge_title = '';
    if (branding.site_title === 'Help centre') branding.site_title = '';
    const value = JSON.stringify(branding);
    if (value !== stored.value)
      await sql`update settings set value = ${value} where key = 'branding'`.execute(db);
  };
}
