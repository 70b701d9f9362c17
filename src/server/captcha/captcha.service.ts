import crypto from 'node:crypto';
import type { CaptchaChallenge } from '../../shared/api/tickets.ts';
import type { AppContext } from '../context.ts';
import type { Executor } from '../db/database.ts';
import { ApiError } from '../http/errors.ts';
import { inSiteLanguage } from '../lib/field-messages.ts';
import { outgoingRequest } from '../lib/outgoing-request.ts';
import { insertSettingIfAbsent, readSetting } from '../settings/settings.repository.ts';
import { deleteExpiredUses, recordUse } from './captcha.repository.ts';

/**
 * How many hashes a browser tries at most: about a second at worst on a desktop, four seconds with its CPU four times
 * slower. Not the ALTCHA libraries' 1,000,000: twenty times the wait (docs/decisions.md, "The captcha's strength").
 */
export const MAX_NUMBER = 50_000;
const LIFETIME_MS = 10 * 60 * 1000;

export type CaptchaProblem = 'captchaRequired' | 'captchaInvalid' | 'captchaUsed';

const sha256 = (text: string) => crypto.createHash('sha256').update(text).digest('hex');

/** One key for all servers, kept in the database, so any server can check a challenge another one issued. */
async function hmacKey(db: Executor): Promise<Buffer> {
  const stored = await readSetting<string>(db, 'captcha_hmac_key');
  if (stored) return Buffer.from(stored, 'base64');
  const key = crypto.randomBytes(32);
  await insertSettingIfAbsent(db, 'captcha_hmac_key', key.toString('base64'));
  return Buffer.from((await readSetting<string>(db, 'captcha_hmac_key')) ?? '', 'base64');
}

const sign = (key: Buffer, text: string) => crypto.createHmac('sha256', key).update(text).digest('hex');

/**
 * The salts we issue. The closing `&` (as the ALTCHA libraries write it) keeps the number's digits out of `expires`:
 * the hash covers salt and number as one string, so without it `…expires=1700000000` with the number 123 hashes like
 * `…expires=17000000001` with 23, a solution good for centuries.
 */
const SALT = /^[0-9a-f]{24}\?expires=(\d{1,12})&$/;

/** An ALTCHA proof-of-work challenge: find the number whose hash with the salt is `challenge`. */
export async function createChallenge(db: Executor, now = Date.now()): Promise<CaptchaChallenge> {
  const salt = `${crypto.randomBytes(12).toString('hex')}?expires=${Math.floor((now + LIFETIME_MS) / 1000)}&`;
  const number = crypto.randomInt(0, MAX_NUMBER);
  const challenge = sha256(`${salt}${number}`);
  return {
    algorithm: 'SHA-256',
    challenge,
    maxnumber: MAX_NUMBER,
    salt,
    signature: sign(await hmacKey(db), challenge),
  };
}

interface Solution {
  algorithm: string;
  challenge: string;
  number: number;
  salt: string;
  signature: string;
}

function parseSolution(payload: string): Solution | null {
  try {
    const value = JSON.parse(Buffer.from(payload, 'base64').toString('utf8')) as Partial<Solution>;
    const ok =
      typeof value.algorithm === 'string' &&
      typeof value.challenge === 'string' &&
      Number.isInteger(value.number) &&
      typeof value.salt === 'string' &&
      typeof value.signature === 'string';
    return ok ? (value as Solution) : null;
  } catch {
    return null;
  }
}

const equal = (a: string, b: string) =>
  a.length === b.length && crypto.timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** Remembers a solution so it cannot be used twice, on any server; false if it was used before. */
async function useOnce(db: Executor, key: string, expiresAt: number): Promise<boolean> {
  await deleteExpiredUses(db, Date.now());
  return recordUse(db, key, expiresAt);
}

async function verifyAltcha(db: Executor, payload: string, now: number): Promise<CaptchaProblem | null> {
  const solution = parseSolution(payload);
  if (!solution || solution.algorithm !== 'SHA-256') return 'captchaInvalid';
  const issued = SALT.exec(solution.salt);
  if (!issued) return 'captchaInvalid';
  const expires = Number(issued[1]);
  if (expires * 1000 < now) return 'captchaInvalid';
  if (!equal(sha256(`${solution.salt}${solution.number}`), solution.challenge)) return 'captchaInvalid';
  if (!equal(sign(await hmacKey(db), solution.challenge), solution.signature)) return 'captchaInvalid';
  return (await useOnce(db, `altcha:${solution.challenge}`, expires * 1000)) ? null : 'captchaUsed';
}

async function verifyRecaptcha(
  ctx: AppContext,
  token: string,
  { secret, verifyUrl }: { secret: string; verifyUrl: string },
): Promise<CaptchaProblem | null> {
  try {
    // The secret is in the body: a redirect is not followed with it.
    const response = await outgoingRequest(verifyUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ secret, response: token }),
      timeoutMs: 5000,
    });
    const result = (await response.json()) as { success?: boolean };
    if (!result.success) return 'captchaInvalid';
  } catch {
    return 'captchaInvalid';
  }
  return (await useOnce(ctx.db, `recaptcha:${sha256(token)}`, Date.now() + 24 * 60 * 60 * 1000))
    ? null
    : 'captchaUsed';
}

/** Checks the form's captcha answer with the configured provider; null when it passes. */
export async function verifyCaptcha(ctx: AppContext, answer: string | undefined, now = Date.now()) {
  const { captcha } = ctx.config;
  if (captcha.provider === 'none') return null;
  if (!answer) return 'captchaRequired';
  return captcha.provider === 'altcha'
    ? verifyAltcha(ctx.db, answer, now)
    : verifyRecaptcha(ctx, answer, captcha);
}

/**
 * A form's captcha, checked once the rest of the form is valid so fixing a typo does not burn it: 422 naming the
 * field in the help centre's language when it fails.
 */
export async function requireCaptcha(ctx: AppContext, answer: string | undefined): Promise<void> {
  const problem = await verifyCaptcha(ctx, answer);
  if (problem) {
    const errors = await inSiteLanguage(ctx.db, [{ field: 'g_recaptcha_response', key: problem }]);
    throw new ApiError(422, 'invalid_request', `g_recaptcha_response: ${errors[0]!.message}`, errors);
  }
}
