import type {
  LoginResult,
  MailSentResult,
  NewPasswordBody,
  PasswordResetBody,
  SignUpBody,
  UpdateMeBody,
  UpdateMeResult,
} from '../../../shared/api/auth.ts';
import { EMAIL_PATTERN, hashToken, openSession, presentUser } from '../../accounts/accounts.service.ts';
import { makeLinkToken, readLinkToken } from '../../accounts/account-links.ts';
import {
  deleteTokensOfUser,
  deleteUser,
  findUser,
  findUserByEmail,
  insertUser,
  normalEmail,
  updateAccount,
} from '../../accounts/users.repository.ts';
import { requireCaptcha } from '../../captcha/captcha.service.ts';
import type { AppContext } from '../../context.ts';
import { isUniqueViolation } from '../../db/constraint-errors.ts';
import type { UserRow } from '../../db/tables.ts';
import { ApiError } from '../../http/errors.ts';
import { inSiteLanguage, type FieldProblem } from '../../lib/field-messages.ts';
import { mailAccount as mail, mailUnavailable } from '../../mail/account-mail.ts';
import { anonymiseTicketsOfUser, claimTicketsByEmail } from '../../tickets/tickets.repository.ts';
import { clearAccountFailures, signInSlots, withGuessReserved } from './sign-in-limits.ts';

export const MIN_PASSWORD_LENGTH = 8;

/** What a form got wrong, field by field, said in the help centre's language (400). */
async function invalid(ctx: AppContext, problems: FieldProblem[]): Promise<ApiError> {
  const errors = await inSiteLanguage(ctx.db, problems);
  return new ApiError(
    400,
    'invalid_account',
    errors.map((e) => `${e.field}: ${e.message}`).join('; '),
    errors,
  );
}

function checkEmail(email: string, problems: FieldProblem[]): void {
  if (!EMAIL_PATTERN.test(email)) problems.push({ field: 'email', key: 'invalidEmail' });
}

function checkPassword(password: string, problems: FieldProblem[], field = 'password'): void {
  if (password.length < MIN_PASSWORD_LENGTH)
    problems.push({ field, key: 'passwordTooShort', vars: { min: MIN_PASSWORD_LENGTH } });
}

/** Whether this address may open an account under SIGNUP. */
function signupAllows(ctx: AppContext, email: string): boolean {
  const { signup } = ctx.config;
  if (signup.mode === 'open') return true;
  if (signup.mode === 'domains') return signup.domains.includes(email.slice(email.lastIndexOf('@') + 1));
  return false;
}

/**
 * Opens a customer account that signs in once its email is confirmed. The answer is the same for a new email, one
 * waiting for confirmation (its name and password replaced, a new link sent) and one with an account (whose owner is
 * mailed that someone tried), so nobody learns from it who has an account.
 */
export async function signUp(ctx: AppContext, body: SignUpBody): Promise<MailSentResult> {
  const { signup } = ctx.config;
  if (signup.mode === 'invite' || signup.mode === 'off')
    throw new ApiError(403, 'signup_closed', 'Accounts here are made by the team; ask them for one');
  if (!ctx.config.tickets.smtpUrl) throw mailUnavailable();
  const email = normalEmail(body.email);
  const name = body.name.trim();
  const problems: FieldProblem[] = [];
  if (!name) problems.push({ field: 'name', key: 'required' });
  checkEmail(email, problems);
  if (problems.length === 0 && !signupAllows(ctx, email))
    problems.push({
      field: 'email',
      key: 'emailDomain',
      vars: { domains: signup.mode === 'domains' ? signup.domains.join(', ') : '' },
    });
  checkPassword(body.password, problems);
  if (problems.length > 0) throw await invalid(ctx, problems);
  await requireCaptcha(ctx, body.g_recaptcha_response);

  const existing = await findUserByEmail(ctx.db, email);
  if (existing?.email_verified_at != null) {
    await ctx.passwords.burn(body.password);
    await mail(ctx, email, { kind: 'exists' });
    return { ok: true, sent_to: email };
  }
  const passwordHash = await ctx.passwords.hash(body.password);
  let user: UserRow;
  if (existing) {
    await updateAccount(ctx.db, existing.id, { name, password_hash: passwordHash });
    user = { ...existing, name, password_hash: passwordHash };
  } else {
    try {
      user = await insertUser(ctx.db, {
        email,
        name,
        password_hash: passwordHash,
        role: 'customer',
        email_verified_at: null,
      });
    } catch (error) {
      // Signed up twice at once: the other made the account, and its link is on the way.
      if (isUniqueViolation(error)) return { ok: true, sent_to: email };
      throw error;
    }
  }
  await mail(ctx, email, { kind: 'verify', token: await makeLinkToken(ctx.db, 'verify', user, email) });
  return { ok: true, sent_to: email };
}

const linkInvalid = (ctx: AppContext) => invalid(ctx, [{ field: 'token', key: 'linkExpired' }]);

/** Another account has this email now (409). */
async function emailTaken(ctx: AppContext): Promise<ApiError> {
  const errors = await inSiteLanguage(ctx.db, [{ field: 'email', key: 'emailTaken' }]);
  return new ApiError(409, 'user_exists', 'Another account uses this email now', errors);
}

/**
 * Confirms an email by its link: a new account's (which then signs in), or a changed address (the account moves to
 * it). Requests sent from that email without an account join it.
 */
export async function verifyEmail(ctx: AppContext, token: string): Promise<LoginResult> {
  const lookup = (id: number) => findUser(ctx.db, id);
  const now = Date.now();
  const verified = await readLinkToken(ctx.db, 'verify', token, lookup);
  if (verified) {
    await updateAccount(ctx.db, verified.user.id, { email_verified_at: now });
    await claimTicketsByEmail(ctx.db, verified.user.id, verified.user.email);
    return openSession(ctx.db, { ...verified.user, email_verified_at: now });
  }
  const moved = await readLinkToken(ctx.db, 'email', token, lookup);
  if (!moved) throw await linkInvalid(ctx);
  const taken = await findUserByEmail(ctx.db, moved.sentTo);
  if (taken && taken.id !== moved.user.id) throw await emailTaken(ctx);
  try {
    await updateAccount(ctx.db, moved.user.id, { email: moved.sentTo, email_verified_at: now });
  } catch (error) {
    if (isUniqueViolation(error)) throw await emailTaken(ctx);
    throw error;
  }
  await claimTicketsByEmail(ctx.db, moved.user.id, moved.sentTo);
  return openSession(ctx.db, { ...moved.user, email: moved.sentTo, email_verified_at: now });
}

/**
 * Mails a link to choose a new password. An email without an account gets a note saying so (with the sign-up
 * page when SIGNUP lets it sign up), and the answer is the same either way.
 */
export async function requestPasswordReset(
  ctx: AppContext,
  body: PasswordResetBody,
): Promise<MailSentResult> {
  if (!ctx.config.tickets.smtpUrl) throw mailUnavailable();
  const email = normalEmail(body.email);
  const problems: FieldProblem[] = [];
  checkEmail(email, problems);
  if (problems.length > 0) throw await invalid(ctx, problems);
  await requireCaptcha(ctx, body.g_recaptcha_response);
  const user = await findUserByEmail(ctx.db, email);
  if (user)
    await mail(ctx, email, { kind: 'reset', token: await makeLinkToken(ctx.db, 'reset', user, email) });
  else if (signupAllows(ctx, email)) await mail(ctx, email, { kind: 'noAccount' });
  return { ok: true, sent_to: email };
}

/**
 * Sets the password chosen through an emailed link: every device is signed out, the account's lockout is cleared, the
 * email counts as confirmed (the link reached it), and a new session opens.
 */
async function choosePassword(
  ctx: AppContext,
  purpose: 'reset' | 'invite',
  body: NewPasswordBody,
): Promise<LoginResult> {
  const problems: FieldProblem[] = [];
  checkPassword(body.password, problems);
  const claims = await readLinkToken(ctx.db, purpose, body.token, (id) => findUser(ctx.db, id));
  if (!claims) throw await linkInvalid(ctx);
  if (problems.length > 0) throw await invalid(ctx, problems);
  const { user } = claims;
  const passwordHash = await ctx.passwords.hash(body.password);
  const verifiedAt = user.email_verified_at ?? Date.now();
  await ctx.db.transaction().execute(async (trx) => {
    await updateAccount(trx, user.id, { password_hash: passwordHash, email_verified_at: verifiedAt });
    await deleteTokensOfUser(trx, user.id);
    await claimTicketsByEmail(trx, user.id, user.email);
  });
  await clearAccountFailures(ctx.db, user.email);
  return openSession(ctx.db, { ...user, password_hash: passwordHash, email_verified_at: verifiedAt });
}

/** A new password through a reset link. */
export const setNewPassword = (ctx: AppContext, body: NewPasswordBody) => choosePassword(ctx, 'reset', body);

/**
 * The first password of an account the team invited (admin-users), through the invitation's link: the email is
 * confirmed, the requests it sent join the account, and the invitee is signed in.
 */
export const acceptInvite = (ctx: AppContext, body: NewPasswordBody) => choosePassword(ctx, 'invite', body);

/** Checks the signed-in user's current password, counted like a sign-in's guess. */
async function confirmPassword(
  ctx: AppContext,
  client: string,
  user: UserRow,
  password: string | undefined,
  field: string,
): Promise<void> {
  if (password === undefined) throw await invalid(ctx, [{ field, key: 'currentPasswordNeeded' }]);
  let matches = true;
  try {
    // A wrong guess keeps its place under the limits only as a 401, which the caller then hears as a field error.
    await withGuessReserved(ctx.db, signInSlots(client, user.email, true), async () => {
      if (!(await ctx.passwords.verify(password, user.password_hash)).matches)
        throw new ApiError(401, 'wrong_password', 'not the password');
    });
  } catch (error) {
    if (!(error instanceof ApiError && error.code === 'wrong_password')) throw error;
    matches = false;
  }
  if (!matches) throw await invalid(ctx, [{ field, key: 'wrongPassword' }]);
}

/**
 * Changes my name; my password (with the current one; other devices are signed out); or my email (with the current
 * password), which moves only once the link mailed to the new address is opened.
 */
export async function updateMe(
  ctx: AppContext,
  user: UserRow,
  token: string | undefined,
  client: string,
  body: UpdateMeBody,
): Promise<UpdateMeResult> {
  const problems: FieldProblem[] = [];
  const name = body.name?.trim();
  if (body.name !== undefined && !name) problems.push({ field: 'name', key: 'required' });
  if (body.password !== undefined) checkPassword(body.password, problems);
  const email = body.email === undefined ? undefined : normalEmail(body.email);
  const newEmail = email !== undefined && email !== user.email ? email : undefined;
  if (newEmail !== undefined) checkEmail(newEmail, problems);
  if (problems.length > 0) throw await invalid(ctx, problems);
  if (newEmail !== undefined && !ctx.config.tickets.smtpUrl) throw mailUnavailable();
  if (body.password !== undefined || newEmail !== undefined)
    await confirmPassword(ctx, client, user, body.current_password, 'current_password');

  let current = user;
  if (name !== undefined && name !== user.name) {
    await updateAccount(ctx.db, user.id, { name });
    current = { ...current, name };
  }
  if (body.password !== undefined) {
    const passwordHash = await ctx.passwords.hash(body.password);
    await ctx.db.transaction().execute(async (trx) => {
      await updateAccount(trx, user.id, { password_hash: passwordHash });
      await deleteTokensOfUser(trx, user.id, token === undefined ? undefined : hashToken(token));
    });
    current = { ...current, password_hash: passwordHash };
  }
  if (newEmail !== undefined) {
    const owner = await findUserByEmail(ctx.db, newEmail);
    await mail(
      ctx,
      newEmail,
      owner
        ? { kind: 'exists' }
        : { kind: 'email', token: await makeLinkToken(ctx.db, 'email', current, newEmail) },
    );
  }
  return { user: presentUser(current), email_change_sent_to: newEmail ?? null };
}

/**
 * Deletes my account, with my password. My requests stay with the team, without my name, email or account, and
 * closed (docs/decisions.md). A team account is removed by an administrator instead.
 */
export async function deleteMe(
  ctx: AppContext,
  user: UserRow,
  client: string,
  password: string,
): Promise<void> {
  if (user.role !== 'customer')
    throw new ApiError(
      403,
      'forbidden',
      "A team member's account is removed by an administrator, on the Users page",
    );
  await confirmPassword(ctx, client, user, password, 'password');
  await ctx.db.transaction().execute(async (trx) => {
    await anonymiseTicketsOfUser(trx, user.id, Date.now());
    await deleteTokensOfUser(trx, user.id);
    await deleteUser(trx, user.id);
  });
}
