import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openAtMigration } from '../../testing/migrations.ts';
import { testDialects } from '../../testing/test-context.ts';
import { migrateToLatest } from '../database.ts';
import { getBranding, getStoredBranding } from '../../settings/branding.ts';

describe.each(testDialects())('migration 0018-default-titles on %s', (dialect) => {
  it("clears the English defaults a branding stored, so the titles follow the site's language", async () => {
    const { environment, handle } = await openAtMigration(dialect, '0017-ticket-search-recency');
    try {
      const stored = { knowledge_title: 'How can we help you?', site_title: 'Help centre', lang: 'ru' };
      await sql`insert into settings (key, value) values ('branding', ${JSON.stringify(stored)})`.execute(
        handle.db,
      );

      await migrateToLatest(handle);
      expect(await getStoredBranding(handle.db)).toMatchObject({
        knowledge_title: '',
        site_title: '',
        lang: 'ru',
      });
      expect(await getBranding(handle.db)).toMatchObject({
        knowledge_title: 'Чем мы можем вам помочь?',
        site_title: 'Справочный центр',
      });
    } finally {
      await handle.close();
      await environment.cleanup();
    }
  });

  it('keeps titles an operator wrote', async () => {
    const { environment, handle } = await openAtMigration(dialect, '0017-ticket-search-recency');
    try {
      const stored = { knowledge_title: 'Ask Acme', site_title: 'Acme help', lang: 'sk' };
      await sql`insert into settings (key, value) values ('branding', ${JSON.stringify(stored)})`.execute(
        handle.db,
      );

      await migrateToLatest(handle);
      expect(await getBranding(handle.db)).toMatchObject(stored);
    } finally {
      await handle.close();
      await environment.cleanup();
    }
  });
});
