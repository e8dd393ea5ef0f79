import type { AdminUser, Role } from '@vitalwatch/shared';

/** The fields the Add and Edit User modals share. */
export interface UserFormValues {
  fullName: string;
  username: string;
  email: string;
  role: Role;
}

export interface PasswordPair {
  password: string;
  confirm: string;
}

/** The cleared form (spec 4): names and email empty, role user. */
export const EMPTY_USER_FORM: UserFormValues = { fullName: '', username: '', email: '', role: 'user' };
export const EMPTY_PASSWORDS: PasswordPair = { password: '', confirm: '' };

const filled = (value: string) => value.trim() !== '';

/** Edit User: full name, username and email must be non-empty. */
export const canUpdateUser = (v: UserFormValues): boolean =>
  filled(v.fullName) && filled(v.username) && filled(v.email);

/** Add User: the edit fields plus both passwords (role always has a value). */
export const canAddUser = (v: UserFormValues, p: PasswordPair): boolean =>
  canUpdateUser(v) && p.password !== '' && p.confirm !== '';

/** Reset Password: both fields non-empty. */
export const canResetPassword = (p: PasswordPair): boolean => p.password !== '' && p.confirm !== '';

export const passwordsMatch = (p: PasswordPair): boolean => p.password === p.confirm;

/** The Edit User form prefilled from the user. */
export const formFromUser = (u: AdminUser): UserFormValues => ({
  fullName: u.fullName,
  username: u.username,
  email: u.email,
  role: u.role,
});

/** What the API receives: names and email without surrounding spaces. */
export const trimmedUser = (v: UserFormValues): UserFormValues => ({
  fullName: v.fullName.trim(),
  username: v.username.trim(),
  email: v.email.trim(),
  role: v.role,
});
