import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { LANGUAGES } from '../../shared/constants.ts';
import { analyse, isStopword, words } from '../search/analysis.ts';
import { normalise } from '../search/embeddings.ts';

/**
 * A small embedding model the tests build themselves, served as an OpenAI-compatible endpoint: random indexing over
 * the texts it is trained on. Each text gets a random sparse signature; a word's vector is the sum of the signatures
 * of the texts it occurs in, so words that occur together come out alike ('refund' near 'reimbursed' when articles
 * use both); a text's vector is its words' vectors weighed by their rarity. Deterministic for the same texts.
 */
export function trainRandomIndexing(texts: string[], dimensions = 256) {
  let seed = 7;
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
  const termsOf = (text: string) => {
    const terms: string[] = [];
    for (const { word } of words(text)) {
      if (isStopword(word)) continue;
      for (const lang of LANGUAGES) terms.push(analyse(word, lang));
    }
    return terms;
  };
  const documentFrequency = new Map<string, number>();
  const wordVectors = new Map<string, Float32Array>();
  for (const text of texts) {
    const signature = new Float32Array(dimensions);
    for (let k = 0; k < 8; k++) {
      const at = Math.floor(random() * dimensions);
      signature[at] = (signature[at] as number) + (random() < 0.5 ? -1 : 1);
    }
    for (const term of new Set(termsOf(text))) {
      documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
      let vector = wordVectors.get(term);
      if (!vector) wordVectors.set(term, (vector = new Float32Array(dimensions)));
      for (let i = 0; i < dimensions; i++) vector[i] = (vector[i] as number) + (signature[i] as number);
    }
  }
  for (const vector of wordVectors.values()) normalise(vector);
  return (text: string): number[] => {
    const sum = new Float32Array(dimensions);
    for (const term of termsOf(text)) {
      const vector = wordVectors.get(term);
      if (!vector) continue;
      const weight = Math.log(1 + texts.length / (documentFrequency.get(term) ?? 1));
      for (let i = 0; i < dimensions; i++) sum[i] = (sum[i] as number) + weight * (vector[i] as number);
    }
    // A text of no known word points nowhere in particular: a fixed direction no article shares.
    if (sum.every((x) => x === 0)) sum[0] = 1e-6;
    return [...normalise(sum)];
  };
}

export interface EmbeddingsServer {
  url: string;
  /** Texts asked about so far. */
  readonly texts: string[];
  /** Requests received so far, failed ones included. */
  requests: number;
  /** While true, every request fails with 503. */
  failing: boolean;
  close(): Promise<void>;
}

export async function startEmbeddingsServer(model: (text: string) => number[]): Promise<EmbeddingsServer> {
  const state: EmbeddingsServer = {
    url: '',
    texts: [],
    requests: 0,
    failing: false,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      state.requests++;
      if (state.failing) {
        response.writeHead(503).end();
        return;
      }
      const { input } = JSON.parse(body) as { model: string; input: string[] };
      state.texts.push(...input);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ data: input.map((text, index) => ({ index, embedding: model(text) })) }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/embeddings`;
  return state;
}
