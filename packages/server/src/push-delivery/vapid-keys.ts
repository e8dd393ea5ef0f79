import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import webpush from 'web-push';
import { z } from 'zod';

/** Base64url text that decodes to exactly `bytes` bytes. */
const base64urlOfLength = (bytes: number, what: string) =>
  z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/, `${what} must be base64url`)
    .refine((v) => Buffer.from(v, 'base64url').length === bytes, `${what} must decode to ${bytes} bytes`);

/** A VAPID key pair as web-push and browsers use it: an uncompressed P-256 point and its scalar. */
export const vapidKeysSchema = z.object({
  publicKey: base64urlOfLength(65, 'the VAPID public key'),
  privateKey: base64urlOfLength(32, 'the VAPID private key'),
});
export type VapidKeys = z.infer<typeof vapidKeysSchema>;

export const VAPID_KEYS_FILE = 'vapid.json';

/**
 * The server's VAPID identity, generated on first start and kept in DATA_DIR: browsers bind their
 * subscriptions to this public key, so a new key would silently orphan every subscription.
 */
export function loadOrCreateVapidKeys(dataDir: string): VapidKeys {
  const file = path.join(dataDir, VAPID_KEYS_FILE);
  let text: string | undefined;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw new Error(`${file} is unreadable: ${err}`);
  }
  if (text !== undefined) {
    const parsed = vapidKeysSchema.safeParse(safeJson(text));
    if (!parsed.success) throw new Error(`${file} does not hold a valid VAPID key pair`);
    return parsed.data;
  }
  const generated = webpush.generateVAPIDKeys();
  const keys = vapidKeysSchema.parse({ publicKey: generated.publicKey, privateKey: generated.privateKey });
  writeFileSync(file, JSON.stringify(keys), { mode: 0o600 });
  return keys;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
