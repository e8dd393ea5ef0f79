import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** A new signing secret, Standard Webhooks style: `whsec_` and 32 random bytes in base64. */
export const newWebhookSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

/**
 * The headers of one signed message (Standard Webhooks, the scheme Stripe's resembles):
 * `webhook-signature: v1,<base64 HMAC-SHA256 over "id.timestamp.body">` with the secret's bytes,
 * one space-separated `v1,` signature per secret (the new and the old one while a rotation
 * overlaps), so a receiver holding either verifies. The receiver checks a signature over the raw
 * body and refuses an old timestamp (replays).
 */
export function signatureHeaders(
  secrets: string | readonly string[],
  id: string,
  body: string,
  now = Date.now(),
) {
  const timestamp = String(Math.floor(now / 1000));
  const all = typeof secrets === 'string' ? [secrets] : secrets;
  return {
    'webhook-id': id,
    'webhook-timestamp': timestamp,
    'webhook-signature': all.map((secret) => `v1,${sign(secret, id, timestamp, body)}`).join(' '),
  };
}

/**
 * The secrets a webhook's messages are signed with now: its secret, and after a rotation the
 * previous one too until its overlap (WEBHOOK_SECRET_OVERLAP_MS) ends.
 */
export function signingSecrets(
  hook: { secret: string; previousSecret: string | null; previousSecretUntil: Date | null },
  now = Date.now(),
): string[] {
  const { secret, previousSecret, previousSecretUntil } = hook;
  return previousSecret && previousSecretUntil && previousSecretUntil.getTime() > now
    ? [secret, previousSecret]
    : [secret];
}

const sign = (secret: string, id: string, timestamp: string, body: string) =>
  createHmac('sha256', Buffer.from(secret.replace(/^whsec_/, ''), 'base64'))
    .update(`${id}.${timestamp}.${body}`)
    .digest('base64');

/** A receiver's check (tests use it as a receiver would): the signature matches and is at most `toleranceS` old. */
export function verifySignature(
  secret: string,
  headers: Record<string, string | string[] | undefined>,
  body: string,
  now = Date.now(),
  toleranceS = 300,
): boolean {
  const [id = '', timestamp = '', signatures = ''] = [
    'webhook-id',
    'webhook-timestamp',
    'webhook-signature',
  ].map((h) => String(headers[h] ?? ''));
  if (!id || !timestamp || Math.abs(now / 1000 - Number(timestamp)) > toleranceS) return false;
  const expected = Buffer.from(sign(secret, id, timestamp, body));
  return signatures.split(' ').some((s) => {
    const given = Buffer.from(s.replace(/^v1,/, ''));
    return s.startsWith('v1,') && given.length === expected.length && timingSafeEqual(given, expected);
  });
}
