import { createECDH } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
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
  const keys = vapidKeysSchema.parse(newVapidKeys());
  writeFileSync(file, JSON.stringify(keys), { mode: 0o600 });
  return keys;
}

/**
 * A new P-256 key pair, as VAPID writes it: the public point uncompressed (65 bytes), the private
 * scalar as 32 big-endian bytes (node:crypto drops its leading zero bytes), both base64url. Made here
 * rather than by web-push, which the server loads only to send its first push (lib/optional-packages.ts).
 */
export function newVapidKeys(): VapidKeys {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const scalar = ecdh.getPrivateKey();
  return {
    publicKey: ecdh.getPublicKey().toString('base64url'),
    privateKey: Buffer.concat([Buffer.alloc(32 - scalar.length), scalar]).toString('base64url'),
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
