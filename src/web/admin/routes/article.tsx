import { data, type LoaderFunctionArgs } from 'react-router';
import type { AdminArticle } from '../../../shared/api/admin.ts';
import { adminCall } from '../api/admin-api.ts';
import type { Placement } from '../features/editor/article-editor.tsx';
import { positiveId } from '../lib/route-params.ts';

export async function articleLoader({ params }: LoaderFunctionArgs): Promise<AdminArticle> {
  const id = positiveId(params.id);
  if (id === null) throw data('not found', { status: 404 });
  return adminCall('getAdminArticle', { params: { id: id } });
}

/** /articles/new?section=1&category=2: where the new article goes. */
export function newArticleLoader({ request }: LoaderFunctionArgs): Placement {
  const query = new URL(request.url).searchParams;
  const sectionId = positiveId(query.get('section'));
  if (sectionId === null) throw data('not found', { status: 404 });
  return { sectionId, categoryId: positiveId(query.get('category')) };
}
