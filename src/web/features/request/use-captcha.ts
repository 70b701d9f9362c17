import { useEffect, useRef, useState } from 'react';
import type { Environments } from '../../../shared/api/settings.ts';
import { fetchChallenge } from './request-api.ts';

export type CaptchaState = 'off' | 'working' | 'ready' | 'failed';

interface Grecaptcha {
  render(element: HTMLElement, options: { sitekey: string }): number;
  getResponse(id?: number): string;
  reset(id?: number): void;
}

const RECAPTCHA_SCRIPT = 'https://www.google.com/recaptcha/api.js?render=explicit';

/**
 * The captcha of the configured provider, alive only while the form is mounted (open): the solver (or Google's
 * script) is loaded when the form opens and removed when it closes, as the specification says. Each `round`
 * asks for a fresh answer, since one is good for one request.
 */
export function useCaptcha(environments: Environments, round: number) {
  const { provider, site_key: siteKey, challenge_url: challengeUrl } = environments.captcha;
  const [state, setState] = useState<CaptchaState>('off');
  const answer = useRef<string>('');
  const recaptchaBox = useRef<HTMLDivElement>(null);
  const widget = useRef<number | undefined>(undefined);

  useEffect(() => {
    answer.current = '';
    if (provider === 'none') {
      setState('off');
      return;
    }
    const controller = new AbortController();
    if (provider === 'altcha' && challengeUrl) {
      setState('working');
      void (async () => {
        try {
          const [{ solveChallenge }, challenge] = await Promise.all([
            import('./altcha-solver.ts'),
            fetchChallenge(),
          ]);
          answer.current = await solveChallenge(challenge, controller.signal);
          setState('ready');
        } catch {
          if (!controller.signal.aborted) setState('failed');
        }
      })();
      return () => controller.abort();
    }
    if (provider === 'recaptcha' && siteKey) {
      setState('working');
      const script = document.createElement('script');
      script.src = RECAPTCHA_SCRIPT;
      script.async = true;
      script.onload = () => {
        const grecaptcha = (window as { grecaptcha?: Grecaptcha }).grecaptcha;
        if (grecaptcha && recaptchaBox.current) {
          widget.current = grecaptcha.render(recaptchaBox.current, { sitekey: siteKey });
          setState('ready');
        }
      };
      script.onerror = () => setState('failed');
      document.head.appendChild(script);
      return () => {
        script.remove();
        widget.current = undefined;
        delete (window as { grecaptcha?: Grecaptcha }).grecaptcha;
      };
    }
    return undefined;
  }, [provider, siteKey, challengeUrl, round]);

  const read = () => {
    if (provider === 'recaptcha') {
      return (window as { grecaptcha?: Grecaptcha }).grecaptcha?.getResponse(widget.current) ?? '';
    }
    return answer.current;
  };

  return { state, provider, read, recaptchaBox };
}
