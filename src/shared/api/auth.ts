import { Type, type Static } from 'typebox';

import { AUTH_HEADER } from '../constants.ts';

export { AUTH_HEADER };

export const AuthUser = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  email: Type.String(),
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
