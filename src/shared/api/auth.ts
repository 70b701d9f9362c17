import { Type, type Static } from 'typebox';

import { AUTH_HEADER, type UserRole, PERSON_NAME_MAX } from '../constants.ts';

export { AUTH_HEADER };

export const UserRoleSchema = Type.Union([
  Type.Literal('admin'),
  Type.Literal('agent'),
  Type.Literal('customer'),
]);
// The schema and USER_ROLES name the same roles.
const _sameRoles: [Static<typeof UserRoleSchema>, UserRole] = [
  'admin' as UserRole,
  'admin' as Static<typeof UserRoleSchema>,
];
void _sameRoles;

export const AuthUser = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  email: Type.String(),
  role: UserRoleSchema,
});
export type AuthUser = Static<typeof AuthUser>;

export const LoginBody = Type.Object({
  email: Type.String({ minLength: 1, maxLength: 320 }),
  password: Type.String({ minLength: 1, maxLength: 1024 }),
});
export type LoginBody = Static<typeof LoginBody>;

export const LoginResult = Type.Object({
  token: Type.String(),
  expires_at: Type.String({ description: 'ISO 8601' }),
  user: AuthUser,
});
export type LoginResult = Static<typeof LoginResult>;

const Name = Type.String({ minLength: 1, maxLength: PERSON_NAME_MAX });
const Password = Type.String({ minLength: 1, maxLength: 1024 });
const Email = Type.String({ minLength: 1, maxLength: 320 });
const Captcha = Type.Optional(Type.String({ maxLength: 20_000 }));
/** A link's token from an emailed link (payload and signature). */
const LinkToken = Type.String({ minLength: 1, maxLength: 2_000 });

export const SignUpBody = Type.Object({
  name: Name,
  email: Email,
  password: Password,
  g_recaptcha_response: Captcha,
});
export type SignUpBody = Static<typeof SignUpBody>;

/** The same answer whether or not the email had an account: the mail says the rest. */
export const MailSentResult = Type.Object({ ok: Type.Literal(true), sent_to: Type.String() });
export type MailSentResult = Static<typeof MailSentResult>;

export const LinkTokenBody = Type.Object({ token: LinkToken });
export type LinkTokenBody = Static<typeof LinkTokenBody>;

/**
 * A confirmation link's token, and the name and password chosen with it when the link is opened in a browser other
 * than the one that asked for it (which answers 400 password_needed without them; account.service verifyEmail).
 */
export const VerifyEmailBody = Type.Object({
  token: LinkToken,
  password: Type.Optional(Password),
  name: Type.Optional(Name),
});
export type VerifyEmailBody = Static<typeof VerifyEmailBody>;

export const PasswordResetBody = Type.Object({ email: Email, g_recaptcha_response: Captcha });
export type PasswordResetBody = Static<typeof PasswordResetBody>;

export const NewPasswordBody = Type.Object({ token: LinkToken, password: Password });
export type NewPasswordBody = Static<typeof NewPasswordBody>;

export const UpdateMeBody = Type.Object({
  name: Type.Optional(Name),
  email: Type.Optional(Email),
  password: Type.Optional(Password),
  current_password: Type.Optional(Password),
});
export type UpdateMeBody = Static<typeof UpdateMeBody>;

export const UpdateMeResult = Type.Object({
  user: AuthUser,
  /** Set when an email change waits for its link to be opened at the new address. */
  email_change_sent_to: Type.Union([Type.String(), Type.Null()]),
});
export type UpdateMeResult = Static<typeof UpdateMeResult>;

export const DeleteMeBody = Type.Object({ password: Password });
export type DeleteMeBody = Static<typeof DeleteMeBody>;
