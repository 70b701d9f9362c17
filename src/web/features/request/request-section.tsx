import { lazy, Suspense, useState } from 'react';
import type { Instruction } from '../../../shared/api/knowledge.ts';
import { Spinner } from '../../components/spinner.tsx';
import { useI18n } from '../../i18n/i18n.tsx';
import type { TrailStep } from '../../lib/trail.ts';

// The form, its uploads and its captcha load only when a visitor opens it, keeping the article page light.
const RequestForm = lazy(() => import('./request-form.tsx'));

/** The article's "make request" button, which expands into the support-request form. */
export function RequestSection({ instruction, trail }: { instruction: Instruction; trail: TrailStep[] }) {
  const { t } = useI18n();
  // Not `useId`: the server's React and the browser's Preact would give different ids. One article, one form.
  const formId = `request-${instruction.id}`;
  const [open, setOpen] = useState(false);
  return (
    <section className="request" aria-labelledby={`${formId}-title`}>
      <h2 id={`${formId}-title`} className="visually-hidden">
        {t('requestFormTitle')}
      </h2>
      <button
        type="button"
        className="button request-toggle"
        aria-expanded={open}
        aria-controls={`${formId}-form`}
        onClick={() => setOpen((value) => !value)}
      >
        {open ? t('hideRequestForm') : t('makeRequestButton')}
      </button>
      {open && (
        <Suspense fallback={<Spinner />}>
          <RequestForm formId={formId} instruction={instruction} trail={trail} />
        </Suspense>
      )}
    </section>
  );
}
