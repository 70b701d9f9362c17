import { useI18n } from '../i18n/i18n.tsx';

export function Spinner({ label }: { label?: string }) {
  const { t } = useI18n();
  return (
    <div className="spinner" role="status">
      <span className="spinner-wheel" aria-hidden="true" />
      <span className="visually-hidden">{label ?? t('loading')}</span>
    </div>
  );
}
