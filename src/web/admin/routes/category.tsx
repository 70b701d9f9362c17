import { data, type LoaderFunctionArgs } from 'react-router';
import type { AdminCategory } from '../../../shared/api/admin.ts';
import { adminCall } from '../api/admin-api.ts';
import { positiveId } from '../lib/route-params.ts';

/** The API reads categories only as part of the tree; this takes the category fresh from it. */
export async function categoryLoader({ params }: LoaderFunctionArgs): Promise<AdminCategory> {
  const id = positiveId(params.id);
  const category =
    id === null ? undefined : (await adminCall('getAdminTree')).categories.find((c) => c.id === id);
  if (!category) throw data('not found', { status: 404 });
  return category;
}
