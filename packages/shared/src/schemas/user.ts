import { z } from 'zod';
import { PASSWORD_MIN_LENGTH, ROLES } from '../constants.ts';
import { VALIDATION } from '../messages.ts';
import { isKnownTimeZone } from '../rules/quiet-hours.ts';
import { TEMPERATURE_UNITS } from '../rules/units.ts';
import { envelope } from './common.ts';

/**
 * A valid e-mail address as WHATWG HTML defines it for `<input type="email">` (what browsers
 * accept), with a dot in the domain: no spaces, quotes, angle brackets or parentheses, so an
 * address can never carry markup (`<svg/onload=…>@x.io`).
 */
export const EMAIL_PATTERN =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;
/**
 * Text shown to other people (names): no control characters and no bidirectional overrides or
 * isolates (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C), which can make a name read
 * backwards or disguise another. Joiners that scripts and emoji need stay allowed.
 */
export const PLAIN_TEXT_PATTERN = /^[^\p{Cc}\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]*$/u;
export const plainTextMessage = (field: string) =>
  `${field} must not contain control or text-direction characters`;
/** At least 8 characters with a digit, a lowercase and an uppercase letter. */
export const STRONG_PASSWORD_PATTERN = /^(?=.*\d)(?=.*[a-z])(?=.*[A-Z]).{8,}$/;
export const USERNAME_PATTERN = /^[A-Za-z0-9._-]+$/;
export const USERNAME_PATTERN_MESSAGE =
  'Username may only contain letters, numbers, dots, dashes and underscores';

const required = (message: string) => z.string({ error: message }).trim().min(1, message);

export const fullNameField = required(VALIDATION.fullNameRequired)
  .max(100, 'Full Name is too long')
  .regex(PLAIN_TEXT_PATTERN, plainTextMessage('Full Name'));
export const usernameField = required(VALIDATION.usernameRequired)
  .max(50, 'Username is too long')
  .regex(USERNAME_PATTERN, USERNAME_PATTERN_MESSAGE);
export const emailField = required(VALIDATION.emailRequired)
  .max(254, VALIDATION.emailInvalid)
  .regex(EMAIL_PATTERN, VALIDATION.emailInvalid);
export const strongPasswordField = z
  .string({ error: VALIDATION.passwordRequired })
  .min(1, VALIDATION.passwordRequired)
  .max(128, 'Password is too long')
  .regex(STRONG_PASSWORD_PATTERN, VALIDATION.passwordWeak);

const passwordPair = z.object({ password: z.string().min(1), cnfPassword: z.string().min(1) });

/** Sign-up form and `POST /user/create` body `user`. */
export const signupSchema = z
  .object({
    fullName: fullNameField,
    username: usernameField,
    email: emailField,
    password: strongPasswordField,
    cnfPassword: z.string({ error: VALIDATION.confirmRequired }).min(1, VALIDATION.confirmRequired),
  })
  .refine((v) => v.password === v.cnfPassword, {
    path: ['cnfPassword'],
    message: VALIDATION.passwordsMismatch,
    // Show the mismatch together with the other fields' messages, as soon as both are filled in.
    when: (payload) => passwordPair.safeParse(payload.value).success,
  });
export type SignupInput = z.infer<typeof signupSchema>;
export const signupBody = z.object({ user: signupSchema });

/** Login form: username (or email) and password, both required, nothing more. */
export const loginSchema = z.object({
  username: required(VALIDATION.usernameRequired).max(254),
  password: z.string({ error: VALIDATION.passwordRequired }).min(1, VALIDATION.passwordRequired).max(128),
});
export type LoginInput = z.infer<typeof loginSchema>;
export const loginBody = z.object({ user: loginSchema });

export const refreshBody = z.object({ refreshToken: z.string().min(1).max(200) });
export const updateNameBody = z.object({ fullName: fullNameField });
/** `POST /user/alert-emails`: opt in to (or out of) an email for every new alert. */
export const alertEmailsBody = z.object({ enabled: z.boolean() });

const clockTime = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, `${label} must be a time such as 22:00`);

export const quietHoursSchema = z
  .object({
    start: clockTime('Start'),
    end: clockTime('End'),
    timeZone: z
      .string({ error: 'Time zone is required' })
      .max(64)
      .refine(isKnownTimeZone, 'Unknown time zone'),
  })
  .strict()
  .refine((q) => q.start !== q.end, { path: ['end'], message: 'End must differ from start' });

/** `POST /user/quiet-hours`: the window, or null to turn quiet hours off. */
export const quietHoursBody = z.object({ quietHours: quietHoursSchema.nullable() }).strict();
export const changePasswordBody = z.object({
  oldPassword: z.string().min(1, VALIDATION.passwordRequired).max(128),
  newPassword: z
    .string()
    .min(1, VALIDATION.passwordRequired)
    .max(128)
    .regex(STRONG_PASSWORD_PATTERN, VALIDATION.passwordWeak),
  /** The caller's own refresh token: its login survives; every other session of the user ends. */
  refreshToken: z.string().max(200).optional(),
});

export const roleSchema = z.enum(ROLES);

/** What the server says about a user: never a hash, never a token. */
export const publicUser = z.object({
  _id: z.string(),
  fullName: z.string(),
  username: z.string(),
  email: z.string(),
  role: roleSchema,
  /** Ids of the user's push subscriptions, one per connected browser. */
  fcmTokens: z.array(z.string()),
  alertEmails: z.boolean(),
  /** Daily check notifications to a browser that has shown nothing for a day (channel health). */
  channelChecks: z.boolean(),
  /** Low-priority alerts are not pushed or mailed in this daily window; null: none. */
  quietHours: quietHoursSchema.nullable(),
  /** How temperatures are shown to this user (stored in °F whatever the choice). */
  temperatureUnit: z.enum(TEMPERATURE_UNITS),
  /** Whether signing in asks for a code from an authenticator app (schemas/two-factor.ts). */
  twoFactorEnabled: z.boolean(),
  /** Unused recovery codes; 0 without two-factor sign-in. */
  recoveryCodesLeft: z.number().int().min(0),
  /** Whether the address was proved by its link: alert e-mails wait for that. */
  emailVerified: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type PublicUser = z.infer<typeof publicUser>;

/** POST /user/temperature-unit. */
export const temperatureUnitBody = z.object({
  unit: z.enum(TEMPERATURE_UNITS, { error: 'Unit must be F or C' }),
});

export const tokenPair = z.object({ accessToken: z.string(), refreshToken: z.string() });
export const authResponse = envelope(tokenPair.extend({ user: publicUser }));
export type AuthResponse = z.infer<typeof authResponse>;
export const profileResponse = envelope(z.object({ user: publicUser }));
export const refreshResponse = envelope(tokenPair);
/** The caller's fresh access token: the password change refuses every token issued before it. */
export const changePasswordResponse = envelope(z.object({ accessToken: z.string() }));

export { PASSWORD_MIN_LENGTH };
