import crypto from 'node:crypto';
import type { EmbeddingsConfig } from '../config/config.ts';
import type { Executor } from '../db/database.ts';
import { chunks } from '../lib/chunks.ts';
import { outgoingRequest } from '../lib/outgoing-request.ts';
import { readEmbeddings, writeEmbeddings } from './embeddings.repository.ts';
import type { SearchDocument } from './search-index.ts';

/** Texts sent to the endpoint at once while articles are embedded. */
const BATCH = 16;
/** An article is embedded from its title and the beginning of its body: most models read no further. */
const TEXT_CHARS = 2_000;
/** Query embeddings kept, so a repeated or retyped query asks the endpoint once. */
const QUERY_CACHE_SIZE = 2_000;
/** Articles found by meaning taken into the blend, and words' results they are blended with. */
export const SEMANTIC_DEPTH = 50;
/** Reciprocal rank fusion's constant: ranks past the first few differ little. */
const RRF_K = 60;

export interface Embedder {
  /** Identifies the model: an embedding made by another is made again. */
  readonly model: string;
  embed(texts: string[], timeoutMs?: number): Promise<Float32Array[]>;
}

/** An OpenAI-compatible embeddings endpoint. */
export function httpEmbedder(config: EmbeddingsConfig): Embedder {
  return {
    model: config.model,
    async embed(texts, timeoutMs = 60_000) {
      const response = await outgoingRequest(config.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {}),
        },
        body: JSON.stringify({ model: config.model, input: texts }),
        timeoutMs,
      });
      if (!response.ok) throw new Error(`the embeddings endpoint answered ${response.status}`);
      const body = (await response.json()) as { data?: { embedding?: unknown; index?: number }[] };
      const data = body.data;
      if (!Array.isArray(data) || data.length !== texts.length)
        throw new Error('the embeddings endpoint answered no data for every text');
      const ordered = [...data].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
      return ordered.map(({ embedding }) => {
        if (!Array.isArray(embedding) || embedding.some((x) => typeof x !== 'number'))
          throw new Error('the embeddings endpoint answered an embedding that is not a list of numbers');
        return normalise(Float32Array.from(embedding as number[]));
      });
    },
  };
}

export function normalise(vector: Float32Array): Float32Array {
  let sum = 0;
  for (const x of vector) sum += x * x;
  const length = Math.sqrt(sum) || 1;
  for (let i = 0; i < vector.length; i++) vector[i] = (vector[i] as number) / length;
  return vector;
}

const encode = (vector: Float32Array) =>
  Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).toString('base64');
function decode(text: string): Float32Array {
  const bytes = Buffer.from(text, 'base64');
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  return new Float32Array(copy.buffer);
}

const textOf = (doc: SearchDocument) => `${doc.title}\n\n${doc.text}`.slice(0, TEXT_CHARS);
const digestOf = (model: string, text: string) =>
  crypto.createHash('sha256').update(`${model}\n${text}`).digest('hex');

/** The embeddings held in memory, each with the digest of the text it was made from. */
interface Vectors {
  vectors: Map<number, Float32Array>;
  digests: Map<number, string>;
}

/**
 * The embeddings of these articles brought up to date: what the database keeps for an article's current text is
 * used, anything else is asked of the endpoint and kept.
 */
async function sync(db: Executor, embedder: Embedder, held: Vectors, documents: SearchDocument[]) {
  const wanted = new Map(documents.map((doc) => [doc.id, digestOf(embedder.model, textOf(doc))]));
  const missing = documents.filter((doc) => held.digests.get(doc.id) !== wanted.get(doc.id));
  for (const page of chunks(missing, 500)) {
    const stored = await readEmbeddings(
      db,
      page.map((doc) => doc.id),
    );
    const found = new Set<number>();
    for (const row of stored) {
      if (row.digest !== wanted.get(row.article_id)) continue;
      held.vectors.set(row.article_id, decode(row.vector));
      held.digests.set(row.article_id, row.digest);
      found.add(row.article_id);
    }
    for (const batch of chunks(
      page.filter((doc) => !found.has(doc.id)),
      BATCH,
    )) {
      const made = await embedder.embed(batch.map(textOf));
      const rows = batch.map((doc, i) => ({
        article_id: doc.id,
        digest: wanted.get(doc.id) as string,
        vector: encode(made[i] as Float32Array),
      }));
      await writeEmbeddings(db, rows);
      batch.forEach((doc, i) => {
        held.vectors.set(doc.id, made[i] as Float32Array);
        held.digests.set(doc.id, wanted.get(doc.id) as string);
      });
    }
  }
}

/** The articles nearest the query, at least `minSimilarity` alike, among those `readable`. */
function nearest(
  vectors: Map<number, Float32Array>,
  query: Float32Array,
  minSimilarity: number,
  readable: (id: number) => boolean,
): number[] {
  const found: { id: number; similarity: number }[] = [];
  for (const [id, vector] of vectors) {
    if (vector.length !== query.length) continue;
    let similarity = 0;
    for (let i = 0; i < vector.length; i++) similarity += (vector[i] as number) * (query[i] as number);
    if (similarity >= minSimilarity && readable(id)) found.push({ id, similarity });
  }
  return found
    .sort((a, b) => b.similarity - a.similarity)
    .slice(0, SEMANTIC_DEPTH)
    .map((hit) => hit.id);
}

/**
 * Articles' embeddings in memory, for semantic matching beside the word index. Brought up to date in the background
 * as the index is: what the database keeps for an article's current text is used, anything else is asked of the
 * endpoint and kept. Searches use what is there meanwhile.
 */
export function createSemanticIndex(db: Executor, embedder: Embedder, timeoutMs: number) {
  const held: Vectors = { vectors: new Map(), digests: new Map() };
  const { vectors, digests } = held;
  let queue: Promise<void> = Promise.resolve();
  /** Whether the last pass failed (the endpoint away): the next update tries again. */
  let behind = false;
  const queries = new Map<string, Float32Array>();

  return {
    /** Embeds these articles (new or changed) after whatever is under way; never rejects. */
    update(documents: SearchDocument[]): Promise<void> {
      queue = queue.then(() =>
        sync(db, embedder, held, documents).then(
          () => {
            behind = false;
          },
          () => {
            behind = true;
          },
        ),
      );
      return queue;
    },
    remove(ids: number[]) {
      for (const id of ids) {
        vectors.delete(id);
        digests.delete(id);
      }
    },
    /** Settles when the embedding under way is done. */
    settled: () => queue,
    get behind() {
      return behind;
    },
    get size() {
      return vectors.size;
    },
    /** The query's embedding, or null when the endpoint does not answer in time (the search is then words only). */
    async embedQuery(text: string): Promise<Float32Array | null> {
      const key = text.trim().toLowerCase();
      const known = queries.get(key);
      if (known) return known;
      try {
        const [vector] = await embedder.embed([key], timeoutMs);
        if (!vector) return null;
        if (queries.size >= QUERY_CACHE_SIZE) queries.delete(queries.keys().next().value as string);
        queries.set(key, vector);
        return vector;
      } catch {
        return null;
      }
    },
    /** The articles nearest the query, at least `minSimilarity` alike, among those `readable`. */
    nearest: (query: Float32Array, minSimilarity: number, readable: (id: number) => boolean): number[] =>
      nearest(vectors, query, minSimilarity, readable),
  };
}

export type SemanticIndex = ReturnType<typeof createSemanticIndex>;

/** Reciprocal rank fusion of the words' ranking and the meaning's, weighed: ids best first. */
export function fuse(byWords: number[], byMeaning: number[], weight: number): number[] {
  const scores = new Map<number, number>();
  byWords.forEach((id, rank) => scores.set(id, (scores.get(id) ?? 0) + 1 / (RRF_K + rank)));
  byMeaning.forEach((id, rank) => scores.set(id, (scores.get(id) ?? 0) + weight / (RRF_K + rank)));
  return [...scores].sort((a, b) => b[1] - a[1]).map(([id]) => id);
}
