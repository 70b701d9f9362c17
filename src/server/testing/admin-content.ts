import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { buildUser, DEFAULT_PASSWORD } from './factories.ts';
import type { TestApp } from './test-context.ts';

/** Signs in through the real login call and answers the token. */
export async function signIn(t: TestApp, email: string, password = DEFAULT_PASSWORD): Promise<string> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email, password },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ token: string }>().token;
}

export async function adminAndUserTokens(t: TestApp) {
  const admin = await buildUser(t.ctx.db, { role: 'admin' });
  const user = await buildUser(t.ctx.db);
  return { admin, user, adminToken: await signIn(t, admin.email), userToken: await signIn(t, user.email) };
}

export type Call = (
  method: InjectOptions['method'],
  url: string,
  payload?: unknown,
  headers?: Record<string, string>,
) => Promise<LightMyRequestResponse>;

/** A request as a given token (or anonymous with undefined). */
export const caller =
  (t: TestApp, token: string | undefined): Call =>
  (method, url, payload, headers = {}) =>
    t.app.inject({
      method,
      url,
      ...(payload === undefined ? {} : { payload: payload as InjectOptions['payload'] }),
      headers: { ...(token === undefined ? {} : { 'x-auth-token': token }), ...headers },
    });

/** Calls that must succeed: the status checked, the JSON answered. */
export async function ok<T>(response: Promise<LightMyRequestResponse>, status = 200): Promise<T> {
  const done = await response;
  expect(done.statusCode, done.body).toBe(status);
  return done.json<T>();
}

/** A multipart/form-data body with the given files, for inject. */
export function multipart(files: { name: string; content: string | Buffer; field?: string }[]): {
  payload: Buffer;
  headers: Record<string, string>;
} {
  const boundary = `----signpost${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const file of files) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'file'}"; filename="${file.name}"\r\n` +
          'Content-Type: application/octet-stream\r\n\r\n',
      ),
      Buffer.from(file.content),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

// A 1x1 transparent PNG.
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
