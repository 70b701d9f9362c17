import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config/config.ts';
import { touchContent } from '../revisions/revision.repository.ts';
import { buildArticle, buildSection } from '../testing/factories.ts';
import { createTestApp, testDialects, type TestApp } from '../testing/test-context.ts';
import { SearchIndex, type SearchDocument } from './search-index.ts';
import { indexFingerprint, readSnapshot, writeSnapshot, type SnapshotHeader } from './search-snapshot.ts';
import { createSearchService, type SearchLog } from './search.service.ts';

const doc = (
  id: number,
  title: string,
  text: string,
  lang: SearchDocument['lang'] = 'en',
): SearchDocument => ({
  id,
  title,
  text,
  category: 'Billing',
  section: 'Guides',
  lang,
  category_id: 1,
  section_id: 1,
  restricted: false,
});

const DOCUMENTS = [
  doc(1, 'Refund a payment', 'Open the payment and choose Refund. The amount goes back to the card.'),
  doc(2, 'Printer setup', 'Plug the printer into the wall and load paper in the tray.'),
  doc(3, 'Wi-Fi at the office', 'Join the wireless network with the key printed on the router.'),
  doc(4, 'Сбросить пароль', 'Откройте настройки и выберите пароль.', 'ru'),
  doc(5, 'Fatturazione mensile', 'Le fatture arrivano ogni mese per posta elettronica.', 'it'),
];
const QUERIES = ['refund', 'printr', 'wifi', 'пароли', 'fatturazzione', 'pay', 'setup printer', 'router key'];

const header = (documents: number, fingerprint = indexFingerprint()): SnapshotHeader => ({
  fingerprint,
  revision: 7,
  versions: new Map([[1, 'v1']]),
  documents,
  writtenAt: Date.now(),
});

const folder = () => fs.mkdtempSync(path.join(os.tmpdir(), 'signpost-snapshot-'));

async function restored(file: string): Promise<SearchIndex> {
  const found = await readSnapshot(file, indexFingerprint());
  if (!found?.usable) throw new Error(`snapshot not usable: ${JSON.stringify(found)}`);
  return SearchIndex.restore(found.pieces);
}

describe('SEARCH_SNAPSHOT', () => {
  it('is on by default, turned off by false, and refuses other values', () => {
    const base = { DATA_DIR: '/tmp/signpost-config-test' };
    expect(loadConfig(base).search.snapshot).toBe(true);
    expect(loadConfig({ ...base, SEARCH_SNAPSHOT: 'false' }).search.snapshot).toBe(false);
    expect(() => loadConfig({ ...base, SEARCH_SNAPSHOT: 'sometimes' })).toThrow(ConfigError);
  });
});

describe('a snapshot of the search index', () => {
  it('restores an index that answers every query as the one written, and takes changes after', async () => {
    const file = path.join(folder(), 'search-index.snapshot');
    const built = await SearchIndex.build(DOCUMENTS);
    const bytes = await writeSnapshot(file, header(built.size), built.pieces(), () => true);
    expect(bytes).toBe(fs.statSync(file).size);

    const found = await readSnapshot(file, indexFingerprint());
    expect(found?.usable && found.header.revision).toBe(7);
    expect(found?.usable && [...found.header.versions]).toEqual([[1, 'v1']]);
    const index = await restored(file);
    expect(index.size).toBe(DOCUMENTS.length);
    for (const query of QUERIES) expect(index.search(query, 10)).toEqual(built.search(query, 10));

    await index.upsert([doc(6, 'Quokka care', 'Feeding the quokka.')]);
    index.remove([1]);
    expect(index.search('quokka', 10).map((hit) => hit.id)).toEqual([6]);
    expect(index.search('refund', 10)).toEqual([]);
  });

  it('is not used when cut short, altered, or made by other code, and is absent when there is none', async () => {
    const dir = folder();
    const file = path.join(dir, 'search-index.snapshot');
    expect(await readSnapshot(file, indexFingerprint())).toBeNull();
    const built = await SearchIndex.build(DOCUMENTS);
    await writeSnapshot(file, header(built.size), built.pieces(), () => true);
    const whole = fs.readFileSync(file);

    fs.writeFileSync(file, whole.subarray(0, whole.length - 100));
    expect(await readSnapshot(file, indexFingerprint())).toEqual({
      usable: false,
      reason: 'not a whole snapshot',
    });
    const altered = Buffer.from(whole);
    const middle = Math.floor(altered.length / 2);
    altered.writeUInt8(altered.readUInt8(middle) ^ 0xff, middle);
    fs.writeFileSync(file, altered);
    expect(await readSnapshot(file, indexFingerprint())).toEqual({
      usable: false,
      reason: 'its checksum does not match',
    });

    await writeSnapshot(file, header(built.size, 'another release'), built.pieces(), () => true);
    expect(await readSnapshot(file, indexFingerprint())).toEqual({
      usable: false,
      reason: 'made by another release or other index settings',
    });
  });

  it('is written whole by one of two writers at once, never mixed, and leaves no partial file', async () => {
    const dir = folder();
    const file = path.join(dir, 'search-index.snapshot');
    const first = await SearchIndex.build(DOCUMENTS);
    const second = await SearchIndex.build([doc(9, 'Quokka care', 'Feeding the quokka.')]);
    await Promise.all([
      writeSnapshot(file, header(first.size), first.pieces(), () => true),
      writeSnapshot(file, header(second.size), second.pieces(), () => true),
    ]);
    expect(fs.readdirSync(dir)).toEqual(['search-index.snapshot']);
    const index = await restored(file);
    const winner = index.size === first.size ? first : second;
    for (const query of [...QUERIES, 'quokka'])
      expect(index.search(query, 10)).toEqual(winner.search(query, 10));
  });

  it('is dropped when the index changes while it is written', async () => {
    const dir = folder();
    const file = path.join(dir, 'search-index.snapshot');
    const index = await SearchIndex.build(DOCUMENTS);
    const changes = index.changeCount;
    const writing = writeSnapshot(
      file,
      header(index.size),
      index.pieces(),
      () => index.changeCount === changes,
    );
    index.remove([2]);
    expect(await writing).toBeNull();
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});

describe.each(testDialects())('a search service with a snapshot on %s', (dialect) => {
  let t: TestApp;
  let file: string;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    file = path.join(folder(), 'search-index.snapshot');
    const section = await buildSection(t.ctx.db);
    // One change in ten is brought up to date on the snapshot (past REBUILD_SHARE the index is built anew).
    const others = ['Invoices', 'Passwords', 'Accounts', 'Batteries', 'Modems', 'Routers', 'Cables'];
    for (const title of ['Refund a payment', 'Printer setup', 'Wireless network', ...others])
      await buildArticle(t.ctx.db, { section_id: section.id, title, body_html: `<p>${title}.</p>` });
    await touchContent(t.ctx.db);
  });
  afterAll(async () => {
    await t.close();
  });

  const logged = () => {
    const lines: string[] = [];
    const log: SearchLog = {
      info: (_fields, message) => lines.push(message),
      warn: (_fields, message) => lines.push(message),
    };
    return { lines, log };
  };
  const titles = async (service: ReturnType<typeof createSearchService>, text: string) =>
    (await service.suggest(text, 10, 'everyone')).items.map((item) => item.title);

  it('writes it after building, and a restarted one answers from it, with what changed while it was down', async () => {
    const first = createSearchService(t.ctx.db, { snapshot: { file } });
    const firstLog = logged();
    first.logTo(firstLog.log);
    await first.refresh();
    await first.settled();
    expect(firstLog.lines).toEqual(['search snapshot written']);

    const printer = await t.ctx.db
      .selectFrom('articles')
      .select('id')
      .where('title', '=', 'Printer setup')
      .executeTakeFirstOrThrow();
    await t.ctx.db
      .updateTable('articles')
      .set({ title: 'Quokka feeding', body_html: '<p>Quokka feeding.</p>', updated_at: Date.now() + 1000 })
      .where('id', '=', printer.id)
      .execute();
    await touchContent(t.ctx.db);

    const restarted = createSearchService(t.ctx.db, { snapshot: { file } });
    const restartedLog = logged();
    restarted.logTo(restartedLog.log);
    expect(await titles(restarted, 'quokka')).toEqual(['Quokka feeding']);
    expect(await titles(restarted, 'printer')).toEqual([]);
    expect(await titles(restarted, 'refund')).toEqual(['Refund a payment']);
    expect(restartedLog.lines).toEqual(['search index loaded from its snapshot']);
  });

  it('builds anew, saying why, when the snapshot is damaged', async () => {
    const whole = fs.readFileSync(file);
    fs.writeFileSync(file, whole.subarray(0, whole.length >> 1));
    const service = createSearchService(t.ctx.db, { snapshot: { file } });
    const { lines, log } = logged();
    service.logTo(log);
    expect(await titles(service, 'refund')).toEqual(['Refund a payment']);
    expect(lines).toEqual(['search snapshot not used: building the index anew']);
    await service.refresh();
    await service.settled();
    expect((await readSnapshot(file, indexFingerprint()))?.usable).toBe(true);
  });
});
