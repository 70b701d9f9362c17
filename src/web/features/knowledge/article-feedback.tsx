import { useEffect, useLayoutEffect, useRef, useState, type FormEvent } from 'react';
import type { FeedbackBody } from '../../../shared/api/feedback.ts';
import { AUTH_HEADER } from '../../../shared/constants.ts';
import { FEEDBACK_COMMENT_MAX, reasonsFor, type FeedbackReason } from '../../../shared/feedback.ts';
import { call } from '../../api/call.ts';
import type { MessageKey } from '../../i18n/en.ts';
import { useI18n } from '../../i18n/i18n.tsx';
import { readAuthToken } from '../../lib/storage.ts';
import { answeredToday, rememberAnswer } from './feedback-memory.ts';

const REASON_TEXTS: Record<FeedbackReason, MessageKey> = {
  answered: 'feedbackReasonAnswered',
  easy_to_understand: 'feedbackReasonEasy',
  complete: 'feedbackReasonComplete',
  not_answered: 'feedbackReasonNotAnswered',
  hard_to_understand: 'feedbackReasonHard',
  out_of_date: 'feedbackReasonOutdated',
  missing: 'feedbackReasonMissing',
};

/** Asking; answered, with the optional reason and comment offered; or done (also after a reload that day). */
type Stage = { step: 'ask' } | { step: 'more'; helpful: boolean } | { step: 'done'; detailed: boolean };

function sendFeedback(articleId: number, body: FeedbackBody) {
  // A restricted article takes answers from signed-in readers, who are known by their token on a write.
  const token = readAuthToken();
  return call('sendArticleFeedback', {
    params: { id: articleId },
    body,
    headers: token ? { [AUTH_HEADER]: token } : {},
  });
}

/**
 * "Was this helpful?" at the end of an article. The page is the same for every visitor (it is kept and served from
 * memory), so what this browser answered today lives in its storage and shows once the page has hydrated.
 */
export function ArticleFeedback({ articleId }: { articleId: number }) {
  const { t } = useI18n();
  // Not `useId`: the server's React and the browser's Preact would give different ids. One article, one feedback.
  const id = `feedback-${articleId}`;
  const [stage, setStage] = useState<Stage>({ step: 'ask' });
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const [reason, setReason] = useState<FeedbackReason | null>(null);
  const [comment, setComment] = useState('');
  const message = useRef<HTMLParagraphElement>(null);
  const answeredHere = useRef(false);

  useEffect(() => {
    if (answeredToday(articleId)) setStage({ step: 'done', detailed: false });
  }, [articleId]);

  // The buttons that had focus are gone: the thanks takes it, so a keyboard or screen reader carries on from there,
  // in the commit that removed them (a layout effect), never a frame with focus on nothing.
  useLayoutEffect(() => {
    if (answeredHere.current) message.current?.focus();
  }, [stage.step]);

  const send = async (body: FeedbackBody) => {
    setBusy(true);
    setFailed(false);
    try {
      await sendFeedback(articleId, body);
      return true;
    } catch {
      setFailed(true);
      return false;
    } finally {
      setBusy(false);
    }
  };

  const handleAnswer = async (helpful: boolean) => {
    if (!(await send({ helpful }))) return;
    rememberAnswer(articleId);
    answeredHere.current = true;
    setStage({ step: 'more', helpful });
  };

  const handleDetails = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (stage.step !== 'more') return;
    const text = comment.trim();
    const body: FeedbackBody = { helpful: stage.helpful };
    if (reason) body.reason = reason;
    if (text) body.comment = text;
    if ((reason || text) && !(await send(body))) return;
    setStage({ step: 'done', detailed: true });
  };

  return (
    <section className="article-feedback" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="article-feedback-title">
        {t('feedbackQuestion')}
      </h2>
      {stage.step === 'ask' && (
        <div className="article-feedback-answers">
          <button
            type="button"
            className="button button-secondary"
            disabled={busy}
            onClick={() => void handleAnswer(true)}
          >
            {t('feedbackYes')}
          </button>
          <button
            type="button"
            className="button button-secondary"
            disabled={busy}
            onClick={() => void handleAnswer(false)}
          >
            {t('feedbackNo')}
          </button>
        </div>
      )}
      {stage.step !== 'ask' && (
        <p ref={message} tabIndex={-1} className="article-feedback-thanks">
          {stage.step === 'done' && stage.detailed ? t('feedbackDone') : t('feedbackThanks')}
        </p>
      )}
      {stage.step === 'more' && (
        <form className="article-feedback-form" onSubmit={(event) => void handleDetails(event)} noValidate>
          <fieldset className="article-feedback-reasons">
            <legend>{t(stage.helpful ? 'feedbackMoreYes' : 'feedbackMoreNo')}</legend>
            {reasonsFor(stage.helpful).map((value) => (
              <label key={value} className="article-feedback-reason">
                <input
                  type="radio"
                  name={`${id}-reason`}
                  value={value}
                  checked={reason === value}
                  onChange={() => setReason(value)}
                />
                {t(REASON_TEXTS[value])}
              </label>
            ))}
          </fieldset>
          <div className="field">
            <label htmlFor={`${id}-comment`}>{t('feedbackComment')}</label>
            <p id={`${id}-hint`} className="field-hint">
              {t('feedbackCommentHint')}
            </p>
            <textarea
              id={`${id}-comment`}
              rows={3}
              maxLength={FEEDBACK_COMMENT_MAX}
              aria-describedby={`${id}-hint`}
              value={comment}
              onChange={(event) => setComment(event.target.value)}
            />
          </div>
          <div>
            <button type="submit" className="button" disabled={busy}>
              {busy ? t('sending') : t('feedbackSend')}
            </button>
          </div>
        </form>
      )}
      {failed && (
        <p className="error-text" role="alert">
          {t('feedbackFailed')}
        </p>
      )}
    </section>
  );
}
