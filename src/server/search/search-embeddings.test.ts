import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Suggestion } from '../../shared/api/search.ts';
import { ConfigError, loadConfig } from '../config/config.ts';
import { touchContent } from '../revisions/revision.repository.ts';
import { buildArticle, buildSection } from '../testing/factories.ts';
import {
  startEmbeddingsServer,
  trainRandomIndexing,
  type EmbeddingsServer,
} from '../testing/embeddings-server.ts';
import { createTestApp, testDialects, type TestApp } from '../testing/test-context.ts';
import { SEARCH_SNAPSHOT_FILE } from '../context-factory.ts';
import { httpEmbedder } from './embeddings.ts';
import { createSearchService } from './search.service.ts';

const ARTICLES = {
  refund: {
    title: 'Refund a payment',
    body: 'Open the payment and choose Refund. The amount goes to the card.',
  },
  chargeback: {
    title: 'Chargebacks',
    body: 'When a bank disputes a payment, a chargeback takes the amount from you; a refund first avoids it.',
  },
  printer: { title: 'Printer setup', body: 'Plug the printer into the wall and load paper.' },
  wifi: { title: 'Wireless network', body: 'Join the office network with the key on the router.' },
  members: {
    title: 'Refunds for partners',
    body: 'Partners ask the account manager for a refund of the amount.',
  },
};

describe('EMBEDDINGS_* settings', () => {
  const base = { DATA_DIR: '/tmp/signpost-config-test' };
  it('are off by default, and need a model with the endpoint', () => {
    expect(loadConfig(base).embeddings).toBeNull();
    expect(() => loadConfig({ ...base, EMBEDDINGS_URL: 'http://127.0.0.1:1/v1/embeddings' })).toThrow(
      ConfigError,
    );
    expect(() => loadConfig({ ...base, EMBEDDINGS_URL: 'ftp://x', EMBEDDINGS_MODEL: 'm' })).toThrow(
      /EMBEDDINGS_URL/,
    );
    expect(() =>
      loadConfig({
        ...base,
        EMBEDDINGS_URL: 'http://x/v1',
        EMBEDDINGS_MODEL: 'm',
        EMBEDDINGS_WEIGHT: 'lots',
      }),
    ).toThrow(/EMBEDDINGS_WEIGHT/);
    expect(() => loadConfig({ ...base, EMBEDDINGS_MODEL_DIR: '/models/e5' })).toThrow(/EMBEDDINGS_URL/);
    expect(
      loadConfig({
        ...base,
        EMBEDDINGS_URL: 'http://x/v1',
        EMBEDDINGS_MODEL: 'm',
        EMBEDDINGS_MIN_SIMILARITY: '0.5',
      }).embeddings,
    ).toEqual({
      url: 'http://x/v1',
      model: 'm',
      apiKey: null,
      weight: 1,
      minSimilarity: 0.5,
      timeoutMs: 1000,
    });
  });
});

describe('the embeddings endpoint', () => {
  it('is asked at its own address only: a redirect elsewhere gets neither the article text nor the key', async () => {
    const endpoint = await startEmbeddingsServer(trainRandomIndexing(['Refund a payment']));
    const asked: http.IncomingHttpHeaders[] = [];
    const moved = http.createServer((request, response) => {
      asked.push(request.headers);
      request.resume();
      // 307 keeps the method and the body: a client that follows it posts the texts to the new address.
      response.writeHead(307, { location: endpoint.url.replace('127.0.0.1', 'localhost') }).end();
    });
    await new Promise<void>((resolve) => moved.listen(0, '127.0.0.1', resolve));
    try {
      const embedder = httpEmbedder({
        url: `http://127.0.0.1:${(moved.address() as AddressInfo).port}/v1/embeddings`,
        model: 'random-indexing-256',
        apiKey: 'key-1',
        weight: 1,
        minSimilarity: 0.15,
        timeoutMs: 1000,
      });
      await expect(embedder.embed(['Refund a payment: the private draft'])).rejects.toThrow(
        'the embeddings endpoint answered 307',
      );
      expect(asked.map((headers) => headers.authorization)).toEqual(['Bearer key-1']);
      expect(endpoint.texts).toEqual([]);
    } finally {
      await new Promise<void>((resolve) => moved.close(() => resolve()));
      await endpoint.close();
    }
  });
});

describe.each(testDialects())('semantic matching on %s', (dialect) => {
  let t: TestApp;
  let endpoint: EmbeddingsServer;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    endpoint = await startEmbeddingsServer(
      trainRandomIndexing(Object.values(ARTICLES).map(({ title, body }) => `${title}\n\n${body}`)),
    );
    t = await createTestApp(dialect, {
      EMBEDDINGS_URL: endpoint.url,
      EMBEDDINGS_MODEL: 'random-indexing-256',
      EMBEDDINGS_MIN_SIMILARITY: '0.15',
    });
    const members = await buildSection(t.ctx.db, { visibility: 'signed_in' });
    for (const [key, { title, body }] of Object.entries(ARTICLES)) {
      const article = await buildArticle(t.ctx.db, {
        title,
        body_html: `<p>${body}</p>`,
        ...(key === 'members' ? { section_id: members.id } : {}),
      });
      ids[key] = article.id;
    }
    await t.ctx.search.refresh();
    await t.ctx.search.settled();
  });
  afterAll(async () => {
    await t?.close();
    await endpoint?.close();
  });

  /** A search service as another server on the same database would have, with the same endpoint. */
  const anotherServer = () =>
    createSearchService(t.ctx.db, {
      embeddings: {
        embedder: httpEmbedder(t.ctx.config.embeddings!),
        weight: 1,
        minSimilarity: 0.15,
        timeoutMs: 1000,
      },
    });

  const suggest = async (text: string) => {
    const response = await t.app.inject(`/api/search/knowledge/suggestions?text=${encodeURIComponent(text)}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ items: Suggestion[] }>().items;
  };

  it('embeds every published article once and keeps the embeddings', async () => {
    expect(t.ctx.search.embedded).toBe(5);
    const stored = await t.ctx.db.selectFrom('article_embeddings').selectAll().execute();
    expect(stored.map((row) => row.article_id).sort()).toEqual(Object.values(ids).sort());
    expect(endpoint.texts.filter((text) => text.startsWith('Refund a payment'))).toHaveLength(1);
  });

  it('reads every article’s embedding from the database when it starts from a snapshot, embedding none again', async () => {
    await t.ctx.search.settled();
    const restarted = createSearchService(t.ctx.db, {
      snapshot: { file: path.join(t.ctx.config.dataDir, SEARCH_SNAPSHOT_FILE) },
      embeddings: {
        embedder: httpEmbedder(t.ctx.config.embeddings!),
        weight: 1,
        minSimilarity: 0.15,
        timeoutMs: 1000,
      },
    });
    const lines: string[] = [];
    restarted.logTo({ info: (_, message) => lines.push(message), warn: (_, message) => lines.push(message) });
    await restarted.suggest('refund', 10, 'everyone');
    await restarted.settled();
    expect(lines).toEqual(['search index loaded from its snapshot']);
    expect(restarted.embedded).toBe(5);
    expect(endpoint.texts.filter((text) => text.startsWith('Refund a payment'))).toHaveLength(1);
  });

  it('finds an article by meaning that its words alone miss, after those the words find', async () => {
    const items = await suggest('chargeback');
    expect(items.map((item) => item.id)).toEqual([ids.chargeback, ids.refund]);
    // Found by meaning: its snippet is the beginning of its body, with nothing marked.
    expect(items[1]?.snippet).toBe('Open the payment and choose Refund. The amount goes to the card.');
    const words = createSearchService(t.ctx.db);
    expect((await words.suggest('chargeback', 10, 'everyone')).items.map((item) => item.id)).toEqual([
      ids.chargeback,
    ]);
  });

  it('shows nothing found by meaning to visitors who may not read it', async () => {
    const items = await suggest('account manager');
    expect(items.map((item) => item.id)).not.toContain(ids.members);
  });

  it('asks the endpoint again only for what changed, also on a server started later', async () => {
    const asked = endpoint.texts.length;
    const later = anotherServer();
    await later.refresh();
    await later.settled();
    expect(later.embedded).toBe(5);
    expect(endpoint.texts.length).toBe(asked);

    await t.ctx.db
      .updateTable('articles')
      .set({ body_html: '<p>Printers need paper and toner.</p>', updated_at: Date.now() + 5 })
      .where('id', '=', ids.printer as number)
      .execute();
    await touchContent(t.ctx.db);
    await later.refresh();
    await later.settled();
    expect(endpoint.texts.slice(asked)).toEqual(['Printer setup\n\nPrinters need paper and toner.']);
  });

  it('answers from the words alone while the endpoint is away, and embeds what it missed once it is back', async () => {
    endpoint.failing = true;
    try {
      const asked = endpoint.requests;
      expect((await suggest('chargeback dispute')).map((item) => item.id)).toEqual([ids.chargeback]);
      // One try for the query, refused at once, and no other: nothing waits on the endpoint meanwhile.
      expect(endpoint.requests - asked).toBe(1);
      const added = await buildArticle(t.ctx.db, {
        title: 'Disputes',
        body_html: '<p>Answer a dispute.</p>',
      });
      await touchContent(t.ctx.db);
      await t.ctx.search.refresh();
      await t.ctx.search.settled();
      expect(t.ctx.search.embedded).toBe(5);
      endpoint.failing = false;
      // The retry waits half a minute after the last; a fresh service retries at once.
      const fresh = anotherServer();
      await fresh.refresh();
      await fresh.settled();
      expect(fresh.embedded).toBe(6);
      expect(await t.ctx.db.selectFrom('article_embeddings').select('article_id').execute()).toContainEqual({
        article_id: added.id,
      });
    } finally {
      endpoint.failing = false;
    }
  });
});
