import { createHash, createHmac, randomInt, randomUUID } from 'node:crypto';
import { TWO_FACTOR } from '@vitalwatch/shared';
import { Secret, TOTP } from 'otpauth';
import { z } from 'zod';
import { loadQrcode } from '../lib/optional-packages.ts';
import { ScopedTokens } from './tokens.ts';

/** RFC 6238 with what every authenticator app reads from a QR code: SHA-1, 6 digits, 30 s. */
const totp = (secret: Secret, label = '') =>
  new TOTP({
    issuer: TWO_FACTOR.issuer,
    label,
    algorithm: 'SHA1',
    digits: TWO_FACTOR.digits,
    period: TWO_FACTOR.periodSeconds,
    secret,
  });

/** A new secret of 160 bits, the HMAC-SHA-1 key length RFC 4226 recommends, in base 32. */
export const newTotpSecret = (): string => new Secret({ size: 20 }).base32;

/**
 * The 30 s step a code belongs to, within TWO_FACTOR.window steps of `atMs`, or null. The
 * caller must refuse a step at or before the last one accepted (a code works once).
 */
export function matchTotpStep(secretBase32: string, code: string, atMs = Date.now()): number | null {
  const secret = Secret.fromBase32(secretBase32);
  const delta = totp(secret).validate({ token: code, timestamp: atMs, window: TWO_FACTOR.window });
  if (delta === null) return null;
  return Math.floor(atMs / 1000 / TWO_FACTOR.periodSeconds) + delta;
}

/** The code an app shows at `atMs` (tests, and the simulator of a person with a phone). */
export const totpCode = (secretBase32: string, atMs = Date.now()): string =>
  totp(Secret.fromBase32(secretBase32)).generate({ timestamp: atMs });

/** What the app scans: the otpauth:// URI and the same as an SVG QR code in a data: URL. */
export async function totpSetupFor(secretBase32: string, accountName: string) {
  const otpauthUrl = totp(Secret.fromBase32(secretBase32), accountName).toString();
  const QRCode = await loadQrcode();
  const svg = await QRCode.toString(otpauthUrl, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return {
    secret: secretBase32,
    otpauthUrl,
    qrCode: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`,
  };
}

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** TWO_FACTOR.recoveryCodes codes like `k7q2m-x4pda` (50 random bits each). */
export function newRecoveryCodes(): string[] {
  const one = () => Array.from({ length: 10 }, () => BASE32[randomInt(32)]).join('');
  return Array.from({ length: TWO_FACTOR.recoveryCodes }, () => {
    const code = one();
    return `${code.slice(0, 5)}-${code.slice(5)}`;
  });
}

/**
 * Recovery codes are kept as HMACs under a key derived from the server secret: a copy of the
 * database alone cannot be searched for them (50 bits would not resist a plain hash).
 */
export class RecoveryCodeHasher {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = createHash('sha256').update(`recovery-code:${secret}`).digest();
  }

  hash(code: string): string {
    return createHmac('sha256', this.key).update(code).digest('hex');
  }
}

const challengeSchema = z.object({
  sub: z.string().min(1),
  purpose: z.literal('two-factor'),
  mode: z.enum(['verify', 'setup']),
  /** The login the challenge opens once passed: a challenge whose login exists is spent. */
  sid: z.uuid(),
  iat_ms: z.number().int().positive(),
});

export type ChallengeMode = 'verify' | 'setup';

/**
 * The proof, between the two steps of a sign-in, that the password was right, for
 * TWO_FACTOR.challengeMinutes. It grants nothing by itself, and opens one login at most: it names
 * that login's id (`loginId`), so once the login exists the challenge is spent.
 */
export class TwoFactorChallenges {
  private readonly tokens: ScopedTokens<z.infer<typeof challengeSchema>>;

  constructor(secret: string) {
    this.tokens = new ScopedTokens(secret, {
      keyLabel: 'two-factor-challenge',
      purpose: 'two-factor',
      ttl: `${TWO_FACTOR.challengeMinutes}m`,
      schema: challengeSchema,
    });
  }

  sign(userId: string, mode: ChallengeMode): Promise<string> {
    return this.tokens.sign(userId, { mode, sid: randomUUID() });
  }

  /** `{userId, mode, loginId, issuedAtMs}` of a valid challenge, or null (expired, forged). */
  async verify(
    token: string,
  ): Promise<{ userId: string; mode: ChallengeMode; loginId: string; issuedAtMs: number } | null> {
    const claims = await this.tokens.verify(token);
    return (
      claims && { userId: claims.sub, mode: claims.mode, loginId: claims.sid, issuedAtMs: claims.iat_ms }
    );
  }
}
