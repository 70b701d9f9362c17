import type { CaptchaChallenge } from '../../../shared/api/tickets.ts';

const hex = (buffer: ArrayBuffer) =>
  Array.from(new Uint8Array(buffer), (byte) => byte.toString(16).padStart(2, '0')).join('');

/**
 * Finds the number the server hid in the challenge (proof of work) and answers the payload for
 * g_recaptcha_response. Loaded only while the request form is open.
 */
export async function solveChallenge(challenge: CaptchaChallenge, signal: AbortSignal): Promise<string> {
  const encoder = new TextEncoder();
  for (let number = 0; number <= challenge.maxnumber; number++) {
    if (signal.aborted) throw new DOMException('aborted', 'AbortError');
    const digest = await crypto.subtle.digest('SHA-256', encoder.encode(`${challenge.salt}${number}`));
    if (hex(digest) === challenge.challenge) {
      return btoa(JSON.stringify({ ...challenge, number }));
    }
  }
  throw new Error('no solution');
}
