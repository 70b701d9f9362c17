import crypto from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CaptchaChallenge } from '../../shared/api/tickets.ts';
import { expectApiError } from '../testing/api-expect.ts';
import { createTestApp, testDialects, type TestApp } from '../testing/test-context.ts';
import { issueOpenBody } from '../testing/ticket-fixtures.ts';

const sha256 = (text: string) => crypto.createHash('sha256').update(text).digest('hex');

/** The number the server hid in a challenge, found as the browser finds it. */
function hiddenNumber(challenge: CaptchaChallenge): number {
  for (let number = 0; number <= challenge.maxnumber; number++) {
    if (sha256(`${challenge.salt}${number}`) === challenge.challenge) return number;
  }
  throw new Error('unsolvable challenge');
}

const payload = (solution: CaptchaChallenge & { number: number }) =>
  Buffer.from(JSON.stringify(solution)).toString('base64');

describe.each(testDialects())('the proof-of-work captcha on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, {
      CAPTCHA_PROVIDER: 'altcha',
      REQUESTS_PER_HOUR: '1000',
      TICKET_WEBHOOK_URL: 'http://127.0.0.1:9/hook',
    });
  });
  afterAll(async () => t?.close());
  afterEach(() => vi.useRealTimers());

  const challenge = async () => (await t.app.inject('/api/captcha/challenge')).json() as CaptchaChallenge;
  const open = (answer: string) =>
    t.app.inject({
      method: 'POST',
      url: '/panel/api/issue-open',
      payload: issueOpenBody({ g_recaptcha_response: answer }),
    });

  it('hides a number below 50,000 and says so (docs/decisions.md, "The captcha\'s strength")', async () => {
    for (let i = 0; i < 5; i++) {
      const issued = await challenge();
      expect(issued.maxnumber).toBe(50_000);
      expect(hiddenNumber({ ...issued, maxnumber: 49_999 })).toBeLessThan(50_000);
    }
  });

  it("refuses a solution whose number's digits were moved into the salt's expiry", async () => {
    // A number whose first digit can be moved: two digits or more, the second not 0 (JSON writes no leading zero).
    let issued = await challenge();
    let number = hiddenNumber(issued);
    while (number < 10 || String(number)[1] === '0') {
      issued = await challenge();
      number = hiddenNumber(issued);
    }
    expect(issued.salt).toMatch(/\?expires=\d+&$/);
    const digits = String(number);
    const spliced = payload({
      ...issued,
      salt: `${issued.salt}${digits[0]}`,
      number: Number(digits.slice(1)),
    });
    // The same string is hashed, so the challenge and its signature still match.
    expect(sha256(`${issued.salt}${digits[0]}${Number(digits.slice(1))}`)).toBe(issued.challenge);
    expectApiError(await open(spliced), 422, ['g_recaptcha_response']);

    // Eleven minutes on, the challenge has expired, however its digits are read.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 11 * 60 * 1000);
    expectApiError(await open(spliced), 422, ['g_recaptcha_response']);
    expectApiError(await open(payload({ ...issued, number })), 422, ['g_recaptcha_response']);
  });
});
