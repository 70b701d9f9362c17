import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpoints } from '../shared/api/endpoints.ts';
import { createTestApp, testDialects, type TestApp } from './testing/test-context.ts';

interface OpenApiOperation {
  parameters?: { name: string; in: string }[];
  requestBody?: unknown;
  responses: Record<string, unknown>;
}
interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, OpenApiOperation>>;
}

/** `/api/knowledge/instruction/:id` as OpenAPI writes it: `/api/knowledge/instruction/{id}`. */
const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');

describe.each(testDialects())('GET /api/openapi.json on %s', (dialect) => {
  let t: TestApp;
  let document: OpenApiDocument;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    const response = await t.app.inject('/api/openapi.json');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    document = response.json<OpenApiDocument>();
  });
  afterAll(async () => t?.close());

  it('is an OpenAPI 3 document', () => {
    expect(document.openapi).toMatch(/^3\./);
  });

  it.each(Object.entries(endpoints))('describes %s with its success and error answers', (_name, endpoint) => {
    const operation = document.paths[openApiPath(endpoint.path)]?.[endpoint.method.toLowerCase()];
    expect(operation, `${endpoint.method} ${endpoint.path}`).toBeDefined();
    const success = String('status' in endpoint ? endpoint.status : 200);
    // A download's answer is the file's bytes, described by its headers rather than a schema.
    if (endpoint.response !== 'stream')
      expect(Object.keys(operation?.responses ?? {})).toEqual(
        expect.arrayContaining([success, '4XX', '5XX']),
      );
    if ('querystring' in endpoint) {
      const names = (operation?.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
      expect(names.sort()).toEqual(Object.keys(endpoint.querystring.properties).sort());
    }
    if ('params' in endpoint) {
      const names = (operation?.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name);
      expect(names).toEqual(Object.keys(endpoint.params.properties));
    }
    // A multipart body is streamed by its handler, never validated whole, so it has no schema to describe.
    if ('body' in endpoint && endpoint.body !== 'multipart') expect(operation?.requestBody).toBeDefined();
  });

  it('describes the file routes, and no API route outside the contract', () => {
    const documented = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const contract = Object.values(endpoints).map((e) => `${e.method} ${openApiPath(e.path)}`);
    // Routes that move file bytes rather than JSON are in the contract too, uploads and downloads alike.
    const fileRoutes = [
      'GET /files/{id}/{name}',
      'POST /api/file',
      'GET /api/ticket-files/{id}',
      'POST /api/admin/files',
    ];
    for (const route of fileRoutes) expect(contract).toContain(route);
    const api = documented.filter((route) =>
      /^\w+ \/((api|panel\/api|files)\/|healthz$|readyz$|metrics$)/.test(route),
    );
    expect(api.sort()).toEqual(contract.sort());
  });
});
