import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LearnedList, SynonymsResponse } from '../../../shared/api/synonyms.ts';
import { expectApiError, suggestionIds } from '../../testing/api-expect.ts';
import { adminAndUserTokens } from '../../testing/admin-content.ts';
import { buildArticle, buildSection } from '../../testing/factories.ts';
import { createTestApp, testDialects, type TestApp } from '../../testing/test-context.ts';
import { exportFolder } from '../content-folder/export-folder.ts';
import { importFolder } from '../content-folder/import-folder.ts';
import { FolderErrors } from '../content-folder/read-folder.ts';
import { learnedScopes, touchContent } from '../../revisions/revision.repository.ts';
import { writeSynonyms } from '../../search/synonyms.ts';

const DAY = 24 * 60 * 60 * 1000;

describe.each(testDialects())('synonyms and learning on %s', (dialect) => {
  let t: TestApp;
  let adminToken: string;
  let customerToken: string;
  let widget: number;
  let plain: number;
  let guide: number;

  const suggest = (text: string) => suggestionIds(t.app, text);
  const putSynonyms = (sets: unknown, token = adminToken) =>
    t.app.inject({
      method: 'PUT',
      url: '/api/admin/synonyms',
      headers: { 'x-auth-token': token },
      payload: { sets } as object,
    });
  const getSynonyms = async () => {
    const response = await t.app.inject({
      url: '/api/admin/synonyms',
      headers: { 'x-auth-token': adminToken },
    });
    expect(response.statusCode).toBe(200);
    return response.json<SynonymsResponse>();
  };
  const open = (query: string, id: number, from: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/search/events',
      payload: { type: 'open', query, id },
      remoteAddress: from,
    });
  const learned = async () => {
    const response = await t.app.inject({
      url: '/api/admin/search-learning',
      headers: { 'x-auth-token': adminToken },
    });
    expect(response.statusCode).toBe(200);
    return response.json<LearnedList>().items;
  };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const { db } = t.ctx;
    ({ adminToken, userToken: customerToken } = await adminAndUserTokens(t));
    const section = await buildSection(db);
    widget = (await buildArticle(db, { section_id: section.id, title: 'Pair the widget' })).id;
    plain = (
      await buildArticle(db, { section_id: section.id, title: 'Printer setup', body_html: '<p>Cable.</p>' })
    ).id;
    guide = (
      await buildArticle(db, {
        section_id: section.id,
        title: 'Printer setup guide for offices',
        body_html: '<p>Cable, paper and drivers for every desk in the office.</p>',
      })
    ).id;
  });
  afterAll(async () => t?.close());

  it('answers the shipped sets until the team saves its own', async () => {
    const shipped = await getSynonyms();
    expect(shipped.defaults).toBe(true);
    expect(shipped.sets.en).toContainEqual(['sign in', 'log in', 'log on']);
    expect(Object.keys(shipped.sets)).toEqual(['en', 'ru', 'pt-BR', 'it', 'sk']);
  });

  it('applies saved sets to the next search, with no re-index and no kept answer in the way', async () => {
    expect(await suggest('gizmo')).toEqual([]);
    const saved = await putSynonyms({ en: [['  gizmo ', 'widget', 'Widget']], sk: [] });
    expect(saved.statusCode, saved.body).toBe(200);
    // Trimmed, and a repeat (in any case) dropped.
    expect(saved.json<SynonymsResponse>()).toEqual({
      sets: { en: [['gizmo', 'widget']], sk: [] },
      defaults: false,
    });
    expect(await suggest('gizmo')).toEqual([widget]);
    expect(await suggest('gizmos')).toEqual([widget]);
    expect((await getSynonyms()).defaults).toBe(false);
    // Emptied by the team: no sets, not the shipped ones.
    expect((await putSynonyms({})).statusCode).toBe(200);
    expect(await getSynonyms()).toEqual({ sets: {}, defaults: false });
    expect(await suggest('gizmo')).toEqual([]);
  });

  it('refuses a set of one phrase, a phrase too long or wordless, and unknown languages, keeping what was stored', async () => {
    expect((await putSynonyms({ en: [['gizmo', 'widget']] })).statusCode).toBe(200);
    expectApiError(
      await putSynonyms({
        en: [
          ['gizmo', 'widget'],
          ['same', 'Same '],
        ],
      }),
      400,
      ['sets.en[1]'],
    );
    expectApiError(await putSynonyms({ en: [['one two three four five', 'x']] }), 400, ['sets.en[0][0]']);
    expectApiError(await putSynonyms({ en: [['—', 'x']] }), 400, ['sets.en[0][0]']);
    expectApiError(await putSynonyms({ de: [['a', 'b']] }), 400);
    expectApiError(await putSynonyms({ en: [['a']] }), 400);
    expectApiError(await putSynonyms({ en: 'a, b' }), 400);
    expect((await getSynonyms()).sets).toEqual({ en: [['gizmo', 'widget']] });
  });

  it('lets admins only see and change them', async () => {
    expect((await putSynonyms({}, customerToken)).statusCode).toBe(403);
    expect(
      (await t.app.inject({ method: 'PUT', url: '/api/admin/synonyms', payload: { sets: {} } })).statusCode,
    ).toBe(401);
    expect((await t.app.inject({ url: '/api/admin/search-learning' })).statusCode).toBe(401);
    const reset = await t.app.inject({
      method: 'DELETE',
      url: '/api/admin/search-learning',
      headers: { 'x-auth-token': customerToken },
    });
    expect(reset.statusCode).toBe(403);
  });

  it('raises what visitors open for a query and its close variants, once per visitor a day, until reset', async () => {
    const before = await suggest('printer setup');
    expect(before[0]).toBe(plain);
    // One visitor opening it again and again is one vote.
    for (let i = 0; i < 6; i++) expect((await open('printer setup', guide, '10.0.0.1')).statusCode).toBe(200);
    expect(await suggest('printer setup')).toEqual(before);
    expect(await t.ctx.db.selectFrom('search_votes').selectAll().execute()).toHaveLength(1);
    // Two more visitors, asking in other words: three votes are a pattern.
    await open('Setup of printers', guide, '10.0.0.2');
    await open('setup for printers', guide, '2001:db8::1');
    expect((await suggest('printer setup'))[0]).toBe(guide);
    expect((await suggest('printers setup'))[0]).toBe(guide);
    // No other query moves.
    expect((await suggest('printer'))[0]).toBe(plain);
    const rows = await learned();
    expect(rows).toEqual([
      expect.objectContaining({ article_id: guide, title: 'Printer setup guide for offices', votes: 3 }),
    ]);
    expect(rows[0]?.factor).toBeGreaterThan(1);
    // No address is kept: only keys made under the day's salt.
    const stored = await t.ctx.db.selectFrom('search_votes').selectAll().execute();
    // The addresses as written (a voter key is hex, which may hold "2001" by chance).
    expect(JSON.stringify(stored)).not.toMatch(/10\.0\.0\.|2001:db8/);

    const reset = await t.app.inject({
      method: 'DELETE',
      url: `/api/admin/search-learning?query=${encodeURIComponent(rows[0]?.query ?? '')}`,
      headers: { 'x-auth-token': adminToken },
    });
    expect(reset.statusCode).toBe(200);
    expect(await learned()).toEqual([]);
    expect(await suggest('printer setup')).toEqual(before);
  });

  it('counts no vote for a draft, a missing article or a query of stopwords only', async () => {
    const draft = await buildArticle(t.ctx.db, { title: 'Printer draft', published: 0 });
    await open('printer setup', draft.id, '10.0.1.1');
    await open('printer setup', 999_999, '10.0.1.2');
    await open('how to', guide, '10.0.1.3');
    expect(await t.ctx.db.selectFrom('search_votes').selectAll().execute()).toEqual([]);
  });

  it('lets old votes fade: three visitors a month ago are no longer a pattern', async () => {
    const old = new Date(Date.now() - 30 * DAY).toISOString().slice(0, 10);
    await t.ctx.db
      .insertInto('search_votes')
      .values(
        ['a', 'b', 'c'].map((voter) => ({ query_key: 'printer setup', day: old, voter, article_id: guide })),
      )
      .execute();
    const rows = await learned();
    expect(rows[0]?.votes).toBeLessThan(1);
    expect(rows[0]?.factor).toBe(1);
    await t.app.inject({
      method: 'DELETE',
      url: '/api/admin/search-learning',
      headers: { 'x-auth-token': adminToken },
    });
    expect(await learned()).toEqual([]);
  });

  it('imports and exports the sets as _synonyms.yml at the folder root, refusing a broken file whole', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'synonyms-'));
    fs.mkdirSync(path.join(dir, 'help'));
    fs.writeFileSync(
      path.join(dir, 'help', 'gadget.md'),
      '---\ntitle: Charge the gadget\n---\nPlug it in.\n',
    );
    fs.writeFileSync(
      path.join(dir, '_synonyms.yml'),
      '# ours\nen:\n  - doohickey, gadget\n  - [contraption, "thing, big"]\nru:\n  - вход, логин\n',
    );
    const summary = await importFolder(t.ctx, dir);
    expect(summary.synonyms).toBe(true);
    expect((await getSynonyms()).sets).toEqual({
      en: [
        ['doohickey', 'gadget'],
        ['contraption', 'thing, big'],
      ],
      ru: [['вход', 'логин']],
    });
    expect(await suggest('doohickey')).toHaveLength(1);

    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'synonyms-out-'));
    await exportFolder(t.ctx, out, { force: true });
    const written = fs.readFileSync(path.join(out, '_synonyms.yml'), 'utf8');
    expect(written).toContain('  - doohickey, gadget\n');
    expect(written).toContain('  - [contraption, "thing, big"]\n');
    // What is exported imports as the same sets.
    fs.writeFileSync(path.join(dir, '_synonyms.yml'), written);
    expect((await importFolder(t.ctx, dir)).synonyms).toBeFalsy();

    for (const broken of [
      'en: nope',
      'de:\n  - a, b',
      'en:\n  - lonely',
      'en: [a, b',
      'en:\n  - a, one two three four five',
    ]) {
      fs.writeFileSync(path.join(dir, '_synonyms.yml'), broken);
      const failure = await importFolder(t.ctx, dir).catch((error: unknown) => error);
      expect(failure, broken).toBeInstanceOf(FolderErrors);
      expect((failure as FolderErrors).message).toContain('_synonyms.yml');
    }
    expect((await getSynonyms()).sets.en).toEqual([
      ['doohickey', 'gadget'],
      ['contraption', 'thing, big'],
    ]);
  });
});

describe.each(testDialects().filter((dialect) => dialect === 'postgres'))(
  'votes read slowly on %s',
  (dialect) => {
    it('hold no search up: answers come from the synonyms and votes there are, not kept, until read', async () => {
      const t = await createTestApp(dialect);
      const locker = new pg.Client({ connectionString: t.environment.env.DATABASE_URL });
      try {
        const section = await buildSection(t.ctx.db);
        await buildArticle(t.ctx.db, { section_id: section.id, title: 'Pair the widget' });
        const suggest = (text: string) =>
          t.app.inject(`/api/search/knowledge/suggestions?text=${encodeURIComponent(text)}`);
        expect((await suggest('widget')).statusCode).toBe(200);
        await writeSynonyms(t.ctx.db, { en: [['gizmo', 'widget']] });
        // Reading the votes (all of them, as after a reset) waits behind this lock, as it would behind a large table.
        await locker.connect();
        await locker.query('begin');
        await locker.query('lock table search_votes in access exclusive mode');
        await touchContent(t.ctx.db, learnedScopes());
        const waiting = await suggest('gizmo');
        // Answered while the read of the votes still waits behind the lock: it did not wait for that read.
        const blocked = async () =>
          (
            await locker.query<{ n: number }>(
              "select count(*)::int as n from pg_locks where relation = 'search_votes'::regclass and not granted",
            )
          ).rows[0]!.n;
        await expect.poll(blocked).toBeGreaterThan(0);
        expect(waiting.statusCode).toBe(200);
        expect(waiting.json<{ items: unknown[] }>().items).toEqual([]);
        expect(waiting.headers['cache-control']).toBe('no-store');
        await locker.query('commit');
        await expect
          .poll(async () => (await suggest('gizmo')).json<{ items: unknown[] }>().items.length)
          .toBe(1);
        expect((await suggest('gizmo')).headers['cache-control']).not.toBe('no-store');
      } finally {
        await locker.end().catch(() => undefined);
        await t.close();
      }
    });
  },
);
