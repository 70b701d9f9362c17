import { redirect, type LoaderFunctionArgs } from 'react-router';
import { href } from '../../shared/paths.ts';
import { apiFrom, pageApi, sessionUser } from '../api/api-context.ts';
import { loadMessages } from '../i18n/i18n.tsx';
import { BundleError, type RootData } from '../lib/use-root-data.ts';
import { pageLanguageOf } from '../../shared/page-language.ts';

/**
 * What every page of the layout needs: branding, environments and the sections and categories (for trails and
 * tiles). Loaded once; client-side navigation reuses it.
 */
export async function rootLoader({ context, request }: LoaderFunctionArgs): Promise<RootData> {
  const api = pageApi(context, request);
  const [branding, environments, sections, categories, user] = await Promise.allSettled([
    api.branding(),
    apiFrom(context).environments(),
    api.sections(),
    api.categories(),
    sessionUser(context),
  ]);
  if (branding.status === 'rejected' || environments.status === 'rejected')
    throw new BundleError('bundleFailed');
  if (!branding.value.knowledge_enabled) throw redirect(href.notFound());
  // The page's texts are in its language before it renders (a chunk of their own, fetched once).
  await loadMessages(pageLanguageOf(new URL(request.url).search) ?? branding.value.lang);
  const incomplete = sections.status === 'rejected' || categories.status === 'rejected';
  return {
    branding: branding.value,
    environments: environments.value,
    sections: sections.status === 'fulfilled' ? sections.value : [],
    categories: categories.status === 'fulfilled' ? categories.value.items : [],
    bundleError: incomplete ? 'bundleIncomplete' : null,
    user: user.status === 'fulfilled' ? user.value : null,
  };
}
