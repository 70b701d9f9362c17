import { useI18n } from '../i18n/i18n.tsx';

/** Under the header when the portal is linked: where to go when the knowledge base has no answer. */
export function RequestHint({ href }: { href: string }) {
  const { t } = useI18n();
  return (
    <aside className="request-hint" aria-label={t('makeRequest')}>
      <span>{t('requestHint')}</span> <a href={href}>{t('makeRequest')}</a>
    </aside>
  );
}
