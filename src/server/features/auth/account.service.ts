import type {
  LoginResult,
  MailSentResult,
  NewPasswordBody,
  PasswordResetBody,
  SignUpBody,
  UpdateMeBody,
  UpdateMeResult,
  VerifyEmailBody,
} from '../../../shared/api/auth.ts';
import crypto from 'node:crypto';
import { hashToken, isInvited, openSession, presentUser } from '../../accounts/accounts.service.ts';
import { readLinkToken } from '../../accounts/account-links.ts';
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
import { isEmailAddress } from '../../lib/email-address.ts';
import {
  mailAccount as mail,
  type MailClient,
  mailUnavailable,
  queueAccountMail,
  takeMailAllowance,
} from '../../mail/account-mail.ts';
import { anonymiseTicketsOfUser, claimTicketsByEmail } from '../../tickets/index.ts';
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
  if (!isEmailAddress(email)) problems.push({ field: 'email', key: 'invalidEmail' });
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
 * Opens a customer account that signs in once its email is confirmed. A sign-up never changes an account that
 * exists, whatever its state (confirmed, waiting for its confirmation, invited by the team): its owner is mailed that
 * someone tried, with a link to choose the password, which proves the address. The answer, and the work done (one
 * hash, one mail queued, one place of the mail allowances), are the same for every address, so nobody learns from it
 * who has an account; only a new address also gets its row inserted, small next to the hash (docs/decisions.md).
 * `binding` ties the confirmation link to the browser's flow cookie (flow-cookie.ts).
 */
export async function signUp(
  ctx: AppContext,
  body: SignUpBody,
  client: MailClient,
  binding: string,
): Promise<MailSentResult> {
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
  await takeMailAllowance(ctx, email, client);

  const existing = await findUserByEmail(ctx.db, email);
  if (existing) {
    await ctx.passwords.burn(body.password);
    await queueAccountMail(ctx, email, { kind: 'exists', userId: existing.id });
    return { ok: true, sent_to: email };
  }
  const passwordHash = await ctx.passwords.hash(body.password);
  let user: UserRow;
  try {
    user = await insertUser(ctx.db, {
      email,
      name,
      password_hash: passwordHash,
      role: 'customer',
      email_verified_at: null,
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    // Signed up twice at once: the other made the account, whose owner hears of this one as of any other.
    const other = await findUserByEmail(ctx.db, email);
    if (other) await queueAccountMail(ctx, email, { kind: 'exists', userId: other.id });
    return { ok: true, sent_to: email };
  }
  await queueAccountMail(ctx, email, { kind: 'verify', userId: user.id, binding });
  return { ok: true, sent_to: email };
}

const linkInvalid = (ctx: AppContext) => invalid(ctx, [{ field: 'token', key: 'linkExpired' }]);

/** Another account has this email now (409). */
async function emailTaken(ctx: AppContext): Promise<ApiError> {
  const errors = await inSiteLanguage(ctx.db, [{ field: 'email', key: 'emailTaken' }]);
  return new ApiError(409, 'user_exists', 'Another account uses this email now', errors);
}

/** The link was opened in another browser than the one that asked for it: a password is chosen first (400). */
async function passwordNeeded(ctx: AppContext, email: string): Promise<ApiError> {
  const errors = await inSiteLanguage(ctx.db, [
    { field: 'password', key: 'choosePasswordToConfirm', vars: { email } },
  ]);
  return new ApiError(
    400,
    'password_needed',
    'This link was opened in another browser than the one it was asked from: choose a password to confirm it',
    errors,
  );
}

const sameBinding = (a: string | null, b: string | null) =>
  a !== null && b !== null && a.length === b.length && crypto.timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * Confirms an email by its link: a new account's, or a changed address (the account moves to it); then the requests
 * sent from that email without an account join it, and a session opens. Only someone who chose the account's
 * password in the same flow is signed in: the browser that asked for the link (its flow cookie's `binding`), or
 * whoever opens the link and chooses a password now, which replaces the account's and signs out every device. That
 * someone also gives the account's name, since the one stored may be a stranger's who signed up with the address.
 */
export async function verifyEmail(
  ctx: AppContext,
  body: VerifyEmailBody,
  binding: string | null,
): Promise<LoginResult> {
  const lookup = (id: number) => findUser(ctx.db, id);
  const verified = await readLinkToken(ctx.db, 'verify', body.token, lookup);
  const moved = verified ? null : await readLinkToken(ctx.db, 'email', body.token, lookup);
  const link = verified ?? moved;
  if (!link) throw await linkInvalid(ctx);
  const { user } = link;
  const email = moved ? moved.sentTo : user.email;
  let passwordHash: string | null = null;
  let name: string | null = null;
  if (!sameBinding(link.binding, binding)) {
    if (body.password === undefined && body.name === undefined) throw await passwordNeeded(ctx, email);
    const problems: FieldProblem[] = [];
    name = body.name?.trim() ?? '';
    if (!name) problems.push({ field: 'name', key: 'required' });
    if (body.password === undefined) problems.push({ field: 'password', key: 'required' });
    else checkPassword(body.password, problems);
    if (problems.length > 0 || body.password === undefined) throw await invalid(ctx, problems);
    passwordHash = await ctx.passwords.hash(body.password);
  }
  if (moved) {
    const taken = await findUserByEmail(ctx.db, email);
    if (taken && taken.id !== user.id) throw await emailTaken(ctx);
  }
  const now = Date.now();
  const changes = {
    email_verified_at: now,
    ...(moved && { email }),
    ...(passwordHash !== null && { password_hash: passwordHash }),
    ...(name !== null && { name }),
  };
  try {
    await ctx.db.transaction().execute(async (trx) => {
      await updateAccount(trx, user.id, changes);
      if (passwordHash !== null) await deleteTokensOfUser(trx, user.id);
      await claimTicketsByEmail(trx, user.id, email);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw await emailTaken(ctx);
    throw error;
  }
  if (passwordHash !== null) await clearAccountFailures(ctx.db, email);
  return openSession(ctx.db, { ...user, ...changes });
}

/**
 * Mails a link to choose a new password; an email without an account gets a note saying so (with the sign-up page
 * when SIGNUP lets it sign up). The answer, and the work done (one mail queued, one place of the mail allowances),
 * are the same either way.
 */
export async function requestPasswordReset(
  ctx: AppContext,
  body: PasswordResetBody,
  client: MailClient,
): Promise<MailSentResult> {
  if (!ctx.config.tickets.smtpUrl) throw mailUnavailable();
  const email = normalEmail(body.email);
  const problems: FieldProblem[] = [];
  checkEmail(email, problems);
  if (problems.length > 0) throw await invalid(ctx, problems);
  await requireCaptcha(ctx, body.g_recaptcha_response);
  await takeMailAllowance(ctx, email, client);
  const user = await findUserByEmail(ctx.db, email);
  await queueAccountMail(
    ctx,
    email,
    user ? { kind: 'reset', userId: user.id } : { kind: 'noAccount', signUp: signupAllows(ctx, email) },
  );
  return { ok: true, sent_to: email };
}

/**
 * Sets the password chosen through an emailed link: every device is signed out, the account's lockout is cleared, the
 * email counts as confirmed (the link reached it), and a new session opens. An account whose email was never
 * confirmed, and that the team did not invite, has a name typed by whoever signed up with the address, perhaps a
 * stranger: a reset link replaces it with the address's local part, which its owner can change on the profile.
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
  const changes = {
    password_hash: passwordHash,
    email_verified_at: user.email_verified_at ?? Date.now(),
    ...(purpose === 'reset' &&
      user.email_verified_at === null &&
      !isInvited(user) && { name: user.email.slice(0, user.email.lastIndexOf('@')) }),
  };
  await ctx.db.transaction().execute(async (trx) => {
    await updateAccount(trx, user.id, changes);
    await deleteTokensOfUser(trx, user.id);
    await claimTicketsByEmail(trx, user.id, user.email);
  });
  await clearAccountFailures(ctx.db, user.email);
  return openSession(ctx.db, { ...user, ...changes });
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
  binding: string,
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
      owner ? { kind: 'exists', userId: owner.id } : { kind: 'email', userId: user.id, binding },
      { key: client, deviceUser: null },
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
