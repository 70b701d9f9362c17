import { Link } from 'react-router';
import { href } from '../../../shared/paths.ts';
import { shownLang, useI18n } from '../../i18n/i18n.tsx';
import type { TrailStep } from '../../lib/trail.ts';

const stepPath = (step: TrailStep) =>
  step.kind === 'instruction'
    ? href.instruction(step.id)
    : step.kind === 'category'
      ? href.category(step.id)
      : href.home();

export function Trail({ steps }: { steps: TrailStep[] }) {
  const { t, lang, localHref } = useI18n();
  return (
    <nav className="trail" aria-label={t('breadcrumbs')}>
      <ol>
        <li>
          <Link to={localHref(href.home())}>{t('main')}</Link>
        </li>
        {steps.map((step, index) => {
          const last = index === steps.length - 1;
          return (
            <li key={`${step.kind}-${step.id}`} lang={shownLang(step.lang, lang)}>
              {last ? (
                <span aria-current="page">{step.name}</span>
              ) : step.kind === 'section' ? (
                <span>{step.name}</span>
              ) : (
                <Link to={localHref(stepPath(step))}>{step.name}</Link>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
