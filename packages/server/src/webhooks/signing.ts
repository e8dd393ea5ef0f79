import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** A new signing secret, Standard Webhooks style: `whsec_` and 32 random bytes in base64. */
export const newWebhookSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

/**
 * The headers of one signed message (Standard Webhooks, the scheme Stripe's resembles):
 * `webhook-signature: v1,<base64 HMAC-SHA256 over "id.timestamp.body">` with the secret's bytes.
 * The receiver checks the signature over the raw body and refuses an old timestamp (replays).
 */
export function signatureHeaders(secret: string, id: string, body: string, now = Date.now()) {
  const timestamp = String(Math.floor(now / 1000));
  return {
    'webhook-id': id,
    'webhook-timestamp': timestamp,
    'webhook-signature': `v1,${sign(secret, id, timestamp, body)}`,
  };
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
