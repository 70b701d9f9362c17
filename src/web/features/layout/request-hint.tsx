import { useI18n } from '../../i18n/i18n.tsx';
import { portalHref, useRootData } from '../../routes/root-data.ts';

/** Under the header when the portal is enabled: where to go when the knowledge base has no answer. */
export function RequestHint() {
  const { t } = useI18n();
  const { environments } = useRootData();
  return (
    <aside className="request-hint" aria-label={t('makeRequest')}>
      <span>{t('requestHint')}</span>{' '}
      <a href={portalHref(environments, '/issues/create')}>{t('makeRequest')}</a>
    </aside>
  );
}
