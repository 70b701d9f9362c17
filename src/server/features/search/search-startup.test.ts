import { describe, expect, it } from 'vitest';
import { startServe } from '../../testing/run-cli.ts';
import { createContext } from '../../context-factory.ts';
import { createTestEnvironment } from '../../testing/test-context.ts';
import { touchContent } from '../../revisions/revision.repository.ts';

const ARTICLES = 5_000;

/**
 * Whether the server has logged `line` within a minute: its log reaches the test through a pipe, which may deliver a
 * line after an answer the server sent later.
 */
async function logged(server: { output(): string }, line: string): Promise<boolean> {
  for (let i = 0; i < 600 && !server.output().includes(line); i++)
    await new Promise((resolve) => setTimeout(resolve, 100));
  return server.output().includes(line);
}

describe('a server starting on a large help centre', () => {
  it('answers other calls while its search index is still being built, then searches; restarted, it searches from its snapshot with what changed meanwhile', async () => {
    const environment = await createTestEnvironment('sqlite', { DEMO_CONTENT: 'false' });
    try {
      const ctx = await createContext(environment.config);
      try {
        const now = Date.now();
        const section = await ctx.db
          .insertInto('sections')
          .values({ name: 'Guides', position: 0, source_path: null, created_at: now, updated_at: now })
          .returning('id')
          .executeTakeFirstOrThrow();
        const words = ['router', 'modem', 'printer', 'invoice', 'password', 'account', 'network', 'battery'];
        for (let i = 0; i < ARTICLES; i += 500) {
          await ctx.db
            .insertInto('articles')
            .values(
              Array.from({ length: 500 }, (_, j) => ({
                section_id: section.id,
                category_id: null,
                title: `${words[(i + j) % words.length]} guide number ${i + j}`,
                body_html: `<p>${words.join(' ')} ${'step by step instructions '.repeat(20)}</p>`,
                body_source: null,
                lang: null,
                can_create_issue: 0 as const,
                published: 1 as const,
                position: i + j,
                source_path: null,
                created_at: now,
                updated_at: now,
              })),
            )
            .execute();
        }
        await ctx.db
          .insertInto('articles')
          .values({
            section_id: section.id,
            category_id: null,
            title: 'Quokka care',
            body_html: '<p>Feeding.</p>',
            body_source: null,
            lang: null,
            can_create_issue: 0,
            published: 1,
            position: ARTICLES,
            source_path: null,
            created_at: now,
            updated_at: now,
          })
          .execute();
        await touchContent(ctx.db);
      } finally {
        await ctx.database.close();
      }

      const server = await startServe(environment.env);
      try {
        // Right after it listens: other calls are answered while readiness still waits for the index.
        const branding = await fetch(`${server.url}/api/settings/branding`);
        const sections = await fetch(`${server.url}/api/knowledge/all-sections`);
        const ready = await fetch(`${server.url}/readyz`);
        expect(branding.status).toBe(200);
        expect(sections.status).toBe(200);
        expect(ready.status).toBe(503);
        expect((await ready.json()).data.errors).toContainEqual({
          field: 'search',
          message: 'the index is not built yet',
        });

        let readyNow = false;
        for (let i = 0; i < 600 && !readyNow; i++) {
          readyNow = (await fetch(`${server.url}/readyz`)).status === 200;
          if (!readyNow) await new Promise((resolve) => setTimeout(resolve, 100));
        }
        expect(readyNow).toBe(true);
        expect(await logged(server, 'search index built')).toBe(true);
        const found = await (
          await fetch(`${server.url}/api/search/knowledge/suggestions?text=quokka`)
        ).json();
        expect(found.items.map((item: { title: string }) => item.title)).toEqual(['Quokka care']);
        expect(await logged(server, 'search snapshot written')).toBe(true);
      } finally {
        await server.stop();
      }

      // Changed while no server runs: found by the restarted one, which reads the rest from its snapshot.
      const offline = await createContext(environment.config);
      try {
        await offline.db
          .updateTable('articles')
          .set({ title: 'Quokka feeding', updated_at: Date.now() + 1000 })
          .where('title', '=', 'Quokka care')
          .execute();
        await touchContent(offline.db);
      } finally {
        await offline.database.close();
      }
      const restarted = await startServe(environment.env);
      try {
        const found = await (
          await fetch(`${restarted.url}/api/search/knowledge/suggestions?text=quokka`)
        ).json();
        expect(found.items.map((item: { title: string }) => item.title)).toEqual(['Quokka feeding']);
        expect(await logged(restarted, 'search index loaded from its snapshot')).toBe(true);
        expect(restarted.output()).not.toContain('search snapshot not used');
      } finally {
        await restarted.stop();
      }
    } finally {
      await environment.cleanup();
    }
  }, 120_000);
});
