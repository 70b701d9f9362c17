import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { Value } from 'typebox/value';
import { expect } from 'vitest';
import { ErrorBody } from '../../shared/api/common.ts';
import type { Suggestion } from '../../shared/api/search.ts';

/**
 * Asserts the one error shape every failure answers: JSON, the contract's ErrorBody, the status repeated in the
 * body, no stack trace, and (for bad input) exactly these fields named in data.errors.
 */
export function expectApiError(
  response: LightMyRequestResponse,
  status: number,
  fields?: string[],
): ErrorBody {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  const body: unknown = response.json();
  expect(Value.Check(ErrorBody, body), response.body).toBe(true);
  const error = body as ErrorBody;
  expect(error.status).toBe(status);
  expect(response.body).not.toMatch(/\bat .+:\d+:\d+|stack/i);
  if (fields) expect(error.data.errors.map((e) => e.field).sort()).toEqual([...fields].sort());
  return error;
}

/** The ids the suggestions call answers for `text`, in order, asserting it answered 200. */
export async function suggestionIds(app: FastifyInstance, text: string): Promise<number[]> {
  const response = await app.inject(`/api/search/knowledge/suggestions?text=${encodeURIComponent(text)}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ items: Suggestion[] }>().items.map((item) => item.id);
}
