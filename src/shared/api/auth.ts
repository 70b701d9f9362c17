import { Type, type Static } from 'typebox';

import { AUTH_HEADER, type UserRole } from '../constants.ts';

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
