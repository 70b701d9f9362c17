import { matchRoutes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { portalPagePaths } from '../shared/paths.ts';
import { PORTAL_ROUTE_ID } from './portal/portal-routes.tsx';
import { documentRoutes } from './routes.tsx';

/** The route a document's router shows for this address: the deepest match's id. */
const shownBy = (portalDocument: boolean, address: string) =>
  matchRoutes(documentRoutes(portalDocument), address)?.at(-1)?.route.id;

describe('documentRoutes', () => {
  it('gives a help-centre document no portal page: each loads a new document, a private link’s among them', () => {
    const addresses = [
      ...portalPagePaths.map((path) => path.replace(':id', '12')),
      '/issues/12?key=secret',
      '/login?from=knowledge_base',
    ];
    for (const address of addresses) {
      const path = portalPagePaths.find((p) => p === address.split('?')[0]!.replace(/\/12$/, '/:id'))!;
      expect(shownBy(false, address), address).toBe(`portal-document:${path}`);
    }
    const ids = JSON.stringify(documentRoutes(false), (key, value) => (key === 'lazy' ? undefined : value));
    expect(ids).not.toContain(`"${PORTAL_ROUTE_ID}"`);
    expect(shownBy(false, '/knowledge/instruction/3')).toBe('instruction');
    expect(shownBy(false, '/knowledge/')).toBe('home');
  });

  it('gives a portal document no help-centre page: each loads a new document', () => {
    for (const address of ['/knowledge', '/knowledge/', '/knowledge/instruction/3', '/knowledge/notFound'])
      expect(shownBy(true, address), address).toBe('help-centre-document');
    expect(shownBy(true, '/issues/12')).toBe('portal:/issues/:id');
    expect(shownBy(true, '/login')).toBe('portal:/login');
  });
});
