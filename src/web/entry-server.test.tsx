import { describe, expect, it } from 'vitest';
import { createApi, type Transport } from './api/client.ts';
import { render } from './entry-server.tsx';

const branding = {
  knowledge_enabled: true,
  portal_enabled: false,
  logo_url: null,
  background_url: null,
  project_id: null,
  knowledge_title: 'How can we help you?',
  site_title: 'Help',
  lang: 'ru',
};
const environments = {
  user_portal: null,
  knowledge_portal: 'http://localhost',
  disable_google_captcha: true,
  captcha: { provider: 'none', site_key: null, challenge_url: null },
};

/** Answers like the server would, except for the paths that fail, which answer 500 as a broken server does. */
function transport(failing: RegExp | null): Transport {
  const answers: Record<string, unknown> = {
    '/api/settings/branding': branding,
    '/panel/api/v2/system/environments': environments,
    '/api/knowledge/all-sections': [],
    '/api/knowledge/category': {
      items: [],
      _meta: { pageCount: 0, totalCount: 0, currentPage: 1, perPage: 1 },
    },
    '/api/knowledge/instruction': {
      items: [],
      _meta: { pageCount: 0, totalCount: 0, currentPage: 1, perPage: 1 },
    },
  };
  return {
    async send({ url: path }) {
      if (failing?.test(path))
        return {
          status: 500,
          body: { status: 500, code: 'internal_error', message: 'x', data: { errors: [] } },
        };
      return path in answers ? { status: 200, body: answers[path] } : { status: 404, body: undefined };
    },
  };
}

const renderHome = (failing: RegExp | null) =>
  render(new Request('http://localhost/knowledge/'), createApi(transport(failing)));

describe('the loading failures of the specification, rendered', () => {
  it('renders the empty knowledge base when everything answers', async () => {
    const page = await renderHome(null);
    expect(page.kind === 'page' && page.html).toContain('В базе знаний пока нет статей');
  });

  it('says not all components were loaded when part of the bundle fails, and shows the rest', async () => {
    const page = await renderHome(/all-sections/);
    if (page.kind !== 'page') throw new Error('expected a page');
    expect(page.html).toContain('Не все компоненты БЗ загружены');
    expect(page.html).toContain('role="search"');
  });

  it('says the components failed to load when branding cannot be had', async () => {
    const page = await renderHome(/branding/);
    if (page.kind !== 'page') throw new Error('expected a page');
    expect(page.status).toBe(500);
    expect(page.html).toContain('An error has occured');
    expect(page.html).toContain('Error loading knowledge base components');
  });
});
