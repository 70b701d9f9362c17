import { describe, expect, it } from 'vitest';
import type { Transport, TransportRequest } from './call.ts';
import { createApi } from './client.ts';

/** Keeps the addresses the help centre's calls ask for, answering each with an empty page. */
function recording() {
  const sent: TransportRequest[] = [];
  const transport: Transport = {
    async send(request) {
      sent.push(request);
      return { status: 200, body: { items: [], _meta: {} } };
    },
  };
  return { sent, transport };
}

describe("the help centre's calls", () => {
  it('asks for child categories and a category’s articles with the parameters the specification names', async () => {
    const { sent, transport } = recording();
    const api = createApi(transport);
    await api.categories({ category_parent_id: 5, page: 2, per_page: 30 });
    await api.instructions({ category_id: 7, page: 1, per_page: 100 });
    await api.categories();
    // Which parameters, not their order: the server reads them by name.
    const asked = sent.map(({ url }) => {
      const [path, query = ''] = url.split('?');
      return [path, Object.fromEntries(new URLSearchParams(query))];
    });
    expect(asked).toEqual([
      ['/api/knowledge/category', { query: '1', page: '2', per_page: '30', category_parent_id: '5' }],
      ['/api/knowledge/instruction', { query: '1', page: '1', per_page: '100', category_id: '7' }],
      ['/api/knowledge/category', {}],
    ]);
  });
});
