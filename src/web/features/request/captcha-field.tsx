import { useI18n } from '../../i18n/i18n.tsx';
import type { useCaptcha } from './use-captcha.ts';

/** The configured captcha's widget or state line, and its error. */
export function CaptchaField({
  captcha,
  error,
  errorId,
}: {
  captcha: ReturnType<typeof useCaptcha>;
  error?: string | undefined;
  errorId?: string;
}) {
  const { t } = useI18n();
  if (captcha.provider === 'none') return null;
  return (
    <div className="field captcha" aria-live="polite">
      {captcha.provider === 'recaptcha' && <div ref={captcha.recaptchaBox} />}
      {captcha.provider === 'altcha' && (
        <p className="field-hint">
          {captcha.state === 'ready'
            ? t('captchaDone')
            : captcha.state === 'failed'
              ? t('captchaFailed')
              : t('captchaChecking')}
        </p>
      )}
      {error && (
        <p id={errorId} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}
