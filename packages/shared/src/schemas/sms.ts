import { z } from 'zod';
import { envelope } from './common.ts';

/** Digits in a phone verification code. */
export const SMS_CODE_LENGTH = 6;
/** How long a code may be used (10 minutes). */
export const SMS_CODE_TTL_MS = 10 * 60_000;
/** Wrong codes before a code is spent and a new one must be asked for. */
export const SMS_CODE_ATTEMPTS = 5;
/** Codes sent per person in a window: 5 an hour (each SMS costs money and may be abused to spam a number). */
export const SMS_CODE_SENDS = { limit: 5, windowMs: 3_600_000 } as const;

export const SMS_MESSAGES = {
  status: 'SMS settings fetched',
  codeSent: 'A code was sent by SMS: enter it to verify the number',
  verified: 'Phone number verified: alerts can now reach it by SMS',
  removed: 'Phone number removed',
  tested: 'Test SMS sent',
  inbound: 'Message received',
  notConfigured: 'SMS is not set up on this server',
  noNumber: 'Add a phone number first',
  notVerified: 'Verify the phone number first',
  optedOut: 'This number replied STOP: reply START to it to receive SMS again',
  wrongCode: 'That code is not right',
  codeExpired: 'That code has expired: ask for a new one',
  noAttemptsLeft: 'Too many wrong codes: ask for a new one',
  noCode: 'Ask for a code first',
  tooManyCodes: `At most ${SMS_CODE_SENDS.limit} codes an hour: try again later`,
  notSent: 'The SMS provider did not take the message',
  badSignature: 'The request is not signed by the SMS provider',
} as const;

/** E.164: a plus, a country code and up to 15 digits in all. */
export const E164 = /^\+[1-9]\d{6,14}$/;

export const smsNumberBody = z
  .object({
    phone: z
      .string()
      .trim()
      .regex(E164, 'phone must be an international number in E.164 form, such as +14155550123'),
  })
  .strict();

export const smsVerifyBody = z
  .object({
    code: z
      .string()
      .trim()
      .regex(
        new RegExp(`^\\d{${SMS_CODE_LENGTH}}$`),
        `code must be the ${SMS_CODE_LENGTH} digits sent by SMS`,
      ),
  })
  .strict();

export const smsStatus = z.object({
  /** Whether the server can send SMS at all (a provider is configured). */
  configured: z.boolean(),
  /** The number with all but its last digits hidden, or null when none is set. */
  phone: z.string().nullable(),
  verified: z.boolean(),
  /** The number replied STOP (or the provider refused it as unsubscribed). */
  optedOut: z.boolean(),
  /** A code was sent and can still be entered. */
  codePending: z.boolean(),
});
export type SmsStatus = z.infer<typeof smsStatus>;

export const smsStatusResponse = envelope(smsStatus);
/** The provider's answer to a test: accepted, with its message id, or why not. */
export const smsTestResponse = envelope(
  z.object({ accepted: z.boolean(), sid: z.string().nullable(), detail: z.string().nullable() }),
);
/** Twilio's inbound message webhook (form fields; only those read are named). */
export const smsInboundBody = z.record(z.string(), z.string());
