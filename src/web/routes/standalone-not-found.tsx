import { useLoaderData, type LoaderFunctionArgs } from 'react-router';
import type { Language } from '../../shared/constants.ts';
import { apiFrom } from '../api/api-context.ts';
import { I18nProvider, loadMessages, useI18n } from '../i18n/i18n.tsx';
import type { RouteHandle } from './head.ts';
import { useHydratedMarker } from './layout.tsx';

export async function standaloneLoader({
  context,
}: LoaderFunctionArgs): Promise<{ lang: Language; siteTitle: string }> {
  try {
    const branding = await apiFrom(context).branding();
    await loadMessages(branding.lang);
    return { lang: branding.lang, siteTitle: branding.site_title };
  } catch {
    return { lang: 'en', siteTitle: '' };
  }
}

export const standaloneHandle: RouteHandle = { status: 404 };

/** The screen for a disabled knowledge base: a base text and no button. */
export function StandaloneNotFound() {
  const { lang } = useLoaderData<typeof standaloneLoader>();
  return (
    <I18nProvider lang={lang}>
      <Body />
    </I18nProvider>
  );
}

function Body() {
  const { t } = useI18n();
  useHydratedMarker();
  return (
    <main className="page standalone-not-found">
      <h1>{t('pageNotFound')}</h1>
      <p>{t('knowledgeUnavailable')}</p>
    </main>
  );
}
