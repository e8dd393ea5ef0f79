import { z } from 'zod';
import { VALIDATION } from '../messages.ts';
import { envelope } from './common.ts';
import { publicUser, tokenPair } from './user.ts';

/**
 * Two-factor sign-in: time-based one-time passwords (TOTP, RFC 6238) with the parameters every
 * authenticator app supports (SHA-1, 6 digits, 30 s steps), plus single-use recovery codes.
 */
export const TWO_FACTOR = {
  issuer: 'VitalWatch',
  digits: 6,
  periodSeconds: 30,
  /**
   * Steps either side of now a code may belong to: one, as RFC 6238 section 5.2 recommends, for
   * a phone clock a little off and the seconds it takes to type a code.
   */
  window: 1,
  recoveryCodes: 10,
  /** Minutes between the password and the code of one sign-in. */
  challengeMinutes: 5,
} as const;

export const TWO_FACTOR_MESSAGES = {
  codeNeeded: 'Enter the code from your authenticator app',
  setupNeeded: 'Admins must set up two-factor sign-in before signing in',
  invalidCode: 'Invalid or already used code',
  challengeExpired: 'Sign-in took too long: enter your password again',
  setupStarted: 'Scan the QR code with your authenticator app, then enter the code it shows',
  enabled: 'Two-factor sign-in turned on',
  disabled: 'Two-factor sign-in turned off',
  recoveryCodesRenewed: 'New recovery codes made: the old ones no longer work',
  requiredForAdmins: 'Two-factor sign-in is required for admins',
  notEnabled: 'Two-factor sign-in is not turned on',
  alreadyEnabled: 'Two-factor sign-in is already turned on',
  noPendingSetup: 'Start the two-factor setup again',
  codeRequired: 'Code is required',
  codeFormat: 'Enter the 6-digit code or a recovery code',
  wrongPassword: 'Current password is incorrect',
} as const;

/** Ten base-32 characters in two groups of five (50 bits): `k7q2m-x4pda`. */
export const RECOVERY_CODE_PATTERN = /^[a-z2-7]{5}-[a-z2-7]{5}$/;

/**
 * What a person types: a 6-digit code (spaces allowed, as apps show `123 456`) or a recovery
 * code (any case, with or without its dash), normalized to `123456` or `k7q2m-x4pda`.
 */
export const twoFactorCodeField = z
  .string({ error: TWO_FACTOR_MESSAGES.codeRequired })
  .max(40, TWO_FACTOR_MESSAGES.codeFormat)
  .transform((v) => v.replace(/[\s-]/g, '').toLowerCase())
  .pipe(
    z
      .string()
      .min(1, TWO_FACTOR_MESSAGES.codeRequired)
      .regex(/^(\d{6}|[a-z2-7]{10})$/, TWO_FACTOR_MESSAGES.codeFormat)
      .transform((v) => (v.length === 6 ? v : `${v.slice(0, 5)}-${v.slice(5)}`)),
  );
export const isRecoveryCode = (code: string) => RECOVERY_CODE_PATTERN.test(code);

const passwordField = z
  .string({ error: VALIDATION.passwordRequired })
  .min(1, VALIDATION.passwordRequired)
  .max(128);

/** What an authenticator app needs: the secret (base 32, to type) and the otpauth:// URI, also as a QR code. */
export const totpSetup = z.object({
  secret: z.string(),
  otpauthUrl: z.string(),
  /** The otpauth:// URI as an SVG QR code, a data: URL. */
  qrCode: z.string(),
});
export type TotpSetup = z.infer<typeof totpSetup>;

/**
 * The password was right and a second step is due: `verify` a code from the app, or (an admin
 * without two-factor sign-in where it is required) `setup` first, with the secret to scan.
 */
export const twoFactorChallenge = z.object({
  twoFactor: z.object({
    challengeToken: z.string(),
    mode: z.enum(['verify', 'setup']),
    setup: totpSetup.optional(),
  }),
});
export type TwoFactorChallenge = z.infer<typeof twoFactorChallenge>;

export const signedIn = tokenPair.extend({
  user: publicUser,
  /** Only after a setup at sign-in: the recovery codes, shown this once. */
  recoveryCodes: z.array(z.string()).optional(),
});
export type SignedIn = z.infer<typeof signedIn>;

/** POST /user/login answers a session, or the second step of a two-factor sign-in. */
export const loginResponse = envelope(z.union([signedIn, twoFactorChallenge]));
export type LoginResponse = z.infer<typeof loginResponse>;

/** POST /user/login/two-factor: the second step. */
export const twoFactorLoginBody = z.object({
  challengeToken: z.string().min(1).max(2000),
  code: twoFactorCodeField,
});
export const twoFactorLoginResponse = envelope(signedIn);

/** POST /user/two-factor/setup: the password again, as for any change to how one signs in. */
export const twoFactorSetupBody = z.object({ password: passwordField });
export const twoFactorSetupResponse = envelope(totpSetup);

/** POST /user/two-factor/enable: the first code from the app proves it holds the secret. */
export const twoFactorEnableBody = z.object({ code: twoFactorCodeField });
export const twoFactorCodesResponse = envelope(
  z.object({
    user: publicUser,
    recoveryCodes: z.array(z.string()),
    /** After enabling: an access token of a two-factor session (admin routes may require it). */
    accessToken: z.string().optional(),
  }),
);
export type TwoFactorCodes = z.infer<typeof twoFactorCodesResponse>['data'];

/** POST /user/two-factor/disable: the password and a code (or recovery code). */
export const twoFactorDisableBody = z.object({ password: passwordField, code: twoFactorCodeField });

/** POST /user/two-factor/recovery-codes: a code from the app replaces every recovery code. */
export const recoveryCodesBody = z.object({ code: twoFactorCodeField });
