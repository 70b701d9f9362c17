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

/** Sends answers for the article: busy while one is on its way, failed when the last one was refused. */
function useFeedbackSender(articleId: number) {
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
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
  return { busy, failed, send };
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
  const { busy, failed, send } = useFeedbackSender(articleId);
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

  const handleAnswer = async (helpful: boolean) => {
    if (!(await send({ helpful }))) return;
    rememberAnswer(articleId);
    answeredHere.current = true;
    setStage({ step: 'more', helpful });
  };

  const handleDetails = async (body: FeedbackBody) => {
    if ((body.reason || body.comment) && !(await send(body))) return;
    setStage({ step: 'done', detailed: true });
  };

  return (
    <section className="article-feedback" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="article-feedback-title">
        {t('feedbackQuestion')}
      </h2>
      {stage.step === 'ask' && (
        <FeedbackAnswers busy={busy} onAnswer={(helpful) => void handleAnswer(helpful)} />
      )}
      {stage.step !== 'ask' && (
        <p ref={message} tabIndex={-1} className="article-feedback-thanks">
          {stage.step === 'done' && stage.detailed ? t('feedbackDone') : t('feedbackThanks')}
        </p>
      )}
      {stage.step === 'more' && (
        <FeedbackDetails id={id} helpful={stage.helpful} busy={busy} onSend={handleDetails} />
      )}
      {failed && (
        <p className="error-text" role="alert">
          {t('feedbackFailed')}
        </p>
      )}
    </section>
  );
}

/** The first question's two answers. */
function FeedbackAnswers({ busy, onAnswer }: { busy: boolean; onAnswer: (helpful: boolean) => void }) {
  const { t } = useI18n();
  return (
    <div className="article-feedback-answers">
      <button
        type="button"
        className="button button-secondary"
        disabled={busy}
        onClick={() => onAnswer(true)}
      >
        {t('feedbackYes')}
      </button>
      <button
        type="button"
        className="button button-secondary"
        disabled={busy}
        onClick={() => onAnswer(false)}
      >
        {t('feedbackNo')}
      </button>
    </div>
  );
}

/** After an answer, the optional reason (those that fit the answer) and comment, sent together or not at all. */
function FeedbackDetails({
  id,
  helpful,
  busy,
  onSend,
}: {
  id: string;
  helpful: boolean;
  busy: boolean;
  onSend: (body: FeedbackBody) => Promise<void>;
}) {
  const { t } = useI18n();
  const [reason, setReason] = useState<FeedbackReason | null>(null);
  const [comment, setComment] = useState('');

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const text = comment.trim();
    const body: FeedbackBody = { helpful };
    if (reason) body.reason = reason;
    if (text) body.comment = text;
    void onSend(body);
  };

  return (
    <form className="article-feedback-form" onSubmit={submit} noValidate>
      <fieldset className="article-feedback-reasons">
        <legend>{t(helpful ? 'feedbackMoreYes' : 'feedbackMoreNo')}</legend>
        {reasonsFor(helpful).map((value) => (
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
  );
}
