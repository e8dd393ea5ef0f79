import { z } from 'zod';
import { VALIDATION } from '../messages.ts';
import { envelope } from './common.ts';
import { twoFactorCodeField } from './two-factor.ts';
import { emailField, strongPasswordField } from './user.ts';

/** What the account self-service screens and their e-mails say (forgot password, verify, sessions, close). */
export const ACCOUNT_MESSAGES = {
  resetRequested:
    'If an account uses that address, we have sent it a link to choose a new password. The link works once, for 30 minutes.',
  resetTooMany: 'Too many reset requests for this address. Try again later.',
  passwordResetDone: 'Your password has been changed. Sign in with the new one.',
  linkExpired: 'This link has expired.',
  linkUsed: 'This link has already been used.',
  linkInvalid: 'This link is not valid.',
  linkValid: 'This link is valid.',
  verifySent: 'We have sent a link to your e-mail address. Open it to verify the address.',
  verifyDone: 'Your e-mail address is verified.',
  alreadyVerified: 'Your e-mail address is already verified.',
  sessionsListed: 'Your sessions',
  sessionEnded: 'Session ended',
  sessionsEnded: 'Every other session ended',
  sessionNotFound: 'Session not found',
  accountClosed: 'Your account has been closed.',
  lastAdminCloses: 'You are the last admin: make someone else an admin before closing your account.',
  codeNeeded: 'Enter a code from your authenticator app',
  wrongPassword: 'Wrong password',
} as const;

/** How long a password reset link works. */
export const RESET_LINK_TTL_MINUTES = 30;
/** How long an e-mail verification link works. */
export const VERIFY_LINK_TTL_HOURS = 48;

/** The purposes of a mailed link: `reset` a password, `verify` an address. */
export const ACCOUNT_LINK_PURPOSES = ['reset', 'verify'] as const;
export type AccountLinkPurpose = (typeof ACCOUNT_LINK_PURPOSES)[number];
export const ACCOUNT_LINK_STATES = ['valid', 'expired', 'used', 'invalid'] as const;

const linkToken = z.string().min(1, ACCOUNT_MESSAGES.linkInvalid).max(200, ACCOUNT_MESSAGES.linkInvalid);

/** `POST /account/forgot-password`. */
export const forgotPasswordBody = z.object({ email: emailField });
/** `POST /account/link-status`: whether a mailed link still works, before its form is shown. */
export const linkStatusBody = z.object({ token: linkToken, purpose: z.enum(ACCOUNT_LINK_PURPOSES) });
export const linkStatusResponse = envelope(z.object({ state: z.enum(ACCOUNT_LINK_STATES) }));
/** `POST /account/reset-password`. */
export const resetWithLinkBody = z
  .object({
    token: linkToken,
    newPassword: strongPasswordField,
    cnfPassword: z.string({ error: VALIDATION.confirmRequired }).min(1, VALIDATION.confirmRequired),
  })
  .refine((v) => v.newPassword === v.cnfPassword, {
    path: ['cnfPassword'],
    message: VALIDATION.passwordsMismatch,
  });
export type ResetWithLinkInput = z.infer<typeof resetWithLinkBody>;
/** `POST /account/verify-email`. */
export const verifyEmailBody = z.object({ token: linkToken });

/** One signed-in browser of the caller (a login: its refresh token family). */
export const accountSession = z.object({
  id: z.string(),
  /** The browser's User-Agent as last seen; null before its first request. */
  userAgent: z.string().nullable(),
  ip: z.string().nullable(),
  signedInAt: z.string(),
  lastUsedAt: z.string(),
  /** The session this answer was asked from. */
  current: z.boolean(),
});
export type AccountSession = z.infer<typeof accountSession>;
export const sessionsResponse = envelope(z.object({ sessions: z.array(accountSession) }));
export const sessionParams = z.object({ id: z.string().max(100) });

/** `POST /account/close`: the password, and a code when two-factor sign-in is on. */
export const closeAccountBody = z.object({
  password: z.string().min(1, VALIDATION.passwordRequired).max(128),
  code: twoFactorCodeField.optional(),
});
export type CloseAccountInput = z.input<typeof closeAccountBody>;
