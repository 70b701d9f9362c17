import { Link } from 'react-router';
import { href } from '../../shared/paths.ts';
import { useI18n } from '../i18n/i18n.tsx';
import type { RouteHandle } from './head.ts';

export const pageNotFoundHandle: RouteHandle = {
  status: 404,
  head: (_data, t) => ({ title: t('pageNotFound') }),
};

export function PageNotFound() {
  const { t, localHref } = useI18n();
  return (
    <section className="not-found">
      <h1>{t('pageNotFound')}</h1>
      <p>{t('pageNotFoundText')}</p>
      <p className="not-found-actions">
        <Link className="button" to={localHref(href.home())}>
          {t('toMainPage')}
        </Link>
        <Link className="button button-secondary" to={localHref(href.search())}>
          {t('toSearch')}
        </Link>
      </p>
    </section>
  );
}
