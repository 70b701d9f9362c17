import type { LightMyRequestResponse } from 'fastify';
import { Value } from 'typebox/value';
import { expect } from 'vitest';
import { ErrorBody } from '../../shared/api/common.ts';

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
