import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/** AES-256-GCM: 12-byte nonce, 16-byte tag. */
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Encrypts small secrets the database keeps but must not hold readable (a rotated refresh token's
 * successor, a TOTP secret). Each use has a key of its own, derived from the server secret and a
 * purpose, and each value is bound to its row (`context`, authenticated data): a sealed value
 * copied to another row, or sealed for another purpose, does not open.
 */
export class Sealer {
  private readonly key: Buffer;

  constructor(secret: string, purpose: string) {
    this.key = createHash('sha256').update(`${purpose}:${secret}`).digest();
  }

  seal(value: string, context: string): string {
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, nonce);
    cipher.setAAD(Buffer.from(context));
    const sealed = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
    return Buffer.concat([nonce, cipher.getAuthTag(), sealed]).toString('base64url');
  }

  /** The value sealed for `context`, or null when it does not open (altered, another key or row). */
  open(sealed: string, context: string): string | null {
    const bytes = Buffer.from(sealed, 'base64url');
    if (bytes.length <= NONCE_BYTES + TAG_BYTES) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, bytes.subarray(0, NONCE_BYTES));
      decipher.setAAD(Buffer.from(context));
      decipher.setAuthTag(bytes.subarray(NONCE_BYTES, NONCE_BYTES + TAG_BYTES));
      return Buffer.concat([
        decipher.update(bytes.subarray(NONCE_BYTES + TAG_BYTES)),
        decipher.final(),
      ]).toString('utf8');
    } catch {
      // Authentication failed: not a value this key sealed for this context.
      return null;
    }
  }
}
