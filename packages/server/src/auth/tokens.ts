import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createSecretKey,
  type KeyObject,
  randomBytes,
  randomUUID,
} from 'node:crypto';
import { ACCESS_TOKEN_TTL_S, type Role } from '@vitalwatch/shared';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { z } from 'zod';

export interface AccessClaims {
  userId: string;
  role: Role;
  /** The login (refresh token family) the token belongs to; none for a token outside any login. */
  sessionId?: string;
}

export interface VerifiedClaims {
  userId: string;
  role: Role;
  /** Milliseconds since the epoch (the `iat_ms` claim; `iat` has whole seconds only). */
  issuedAtMs: number;
  /** What a logout revokes: the token's login (`sid`), or the token itself (`jti`) when it has none. */
  sessionId: string;
}

const claimsSchema = z.object({
  sub: z.string().min(1),
  role: z.enum(['user', 'admin']),
  iat_ms: z.number().int().positive(),
  jti: z.string().min(1).max(100),
  sid: z.string().min(1).max(100).optional(),
});

/** AES-256-GCM: 12-byte nonce, 16-byte tag. */
const SEAL_NONCE_BYTES = 12;
const SEAL_TAG_BYTES = 16;

export class TokenService {
  private readonly key: Uint8Array;
  /** Seals a rotated refresh token's successor; derived, so it is never the signing key. */
  private readonly sealKey: Buffer;

  constructor(secret: string) {
    this.key = new TextEncoder().encode(secret);
    this.sealKey = createHash('sha256').update(`refresh-successor:${secret}`).digest();
  }

  async signAccess({ userId, role, sessionId }: AccessClaims): Promise<string> {
    // Millisecond issue time, so ending a user's sessions refuses every token issued before that instant.
    return new SignJWT({ role, iat_ms: Date.now(), ...(sessionId ? { sid: sessionId } : {}) })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(userId)
      .setIssuedAt()
      .setExpirationTime(`${ACCESS_TOKEN_TTL_S}s`)
      .setIssuer('vitalwatch')
      .setJti(randomUUID())
      .sign(this.key);
  }

  /** The claims of a valid access token, or null for anything else (expired, forged, malformed). */
  async verifyAccess(token: string): Promise<VerifiedClaims | null> {
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'], issuer: 'vitalwatch' });
      const claims = claimsSchema.parse(payload);
      return {
        userId: claims.sub,
        role: claims.role,
        issuedAtMs: claims.iat_ms,
        sessionId: claims.sid ?? claims.jti,
      };
    } catch (err) {
      if (err instanceof joseErrors.JOSEError || err instanceof z.ZodError) return null;
      throw err;
    }
  }

  /**
   * A rotated refresh token's successor, encrypted for its row (`rowId` is authenticated data, so
   * a sealed value moved to another row does not open). Only hashes of live tokens are stored; this
   * lets a retry within the grace get the same successor back.
   */
  sealSuccessor(token: string, rowId: string): string {
    const nonce = randomBytes(SEAL_NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.sealKey, nonce);
    cipher.setAAD(Buffer.from(rowId));
    const sealed = Buffer.concat([cipher.update(token, 'utf8'), cipher.final()]);
    return Buffer.concat([nonce, cipher.getAuthTag(), sealed]).toString('base64url');
  }

  /** The successor sealed for `rowId`, or null when the value does not open (altered, another key). */
  openSuccessor(sealed: string, rowId: string): string | null {
    const bytes = Buffer.from(sealed, 'base64url');
    if (bytes.length <= SEAL_NONCE_BYTES + SEAL_TAG_BYTES) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.sealKey, bytes.subarray(0, SEAL_NONCE_BYTES));
      decipher.setAAD(Buffer.from(rowId));
      decipher.setAuthTag(bytes.subarray(SEAL_NONCE_BYTES, SEAL_NONCE_BYTES + SEAL_TAG_BYTES));
      const start = SEAL_NONCE_BYTES + SEAL_TAG_BYTES;
      return Buffer.concat([decipher.update(bytes.subarray(start)), decipher.final()]).toString('utf8');
    } catch {
      // Authentication failed: not a value this key sealed for this row.
      return null;
    }
  }
}

const alertActionSchema = z.object({
  sub: z.string().min(1),
  alert: z.string().min(1),
  purpose: z.literal('alert-ack'),
  iat_ms: z.number().int().positive(),
});

/** How long the Acknowledge button of a notification works: past the longest escalation (2 h). */
const ALERT_ACTION_TTL = '3h';

/**
 * Tokens scoped to one alert and one user, carried by a push notification so its Acknowledge
 * button works without opening (or signing in to) the app. They can do nothing else.
 */
export class AlertActionTokens {
  private readonly key: KeyObject;

  constructor(secret: string) {
    // A key of its own, derived from the JWT secret: an alert token is never an access token. A
    // KeyObject, so signing on the push path does not import the key each time.
    this.key = createSecretKey(createHash('sha256').update(`alert-action:${secret}`).digest());
  }

  sign(alertId: string, userId: string): Promise<string> {
    return new SignJWT({ alert: alertId, purpose: 'alert-ack', iat_ms: Date.now() })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(userId)
      .setIssuedAt()
      .setExpirationTime(ALERT_ACTION_TTL)
      .setIssuer('vitalwatch')
      .sign(this.key);
  }

  /** `{alertId, userId, issuedAtMs}` of a valid token, or null. */
  async verify(token: string): Promise<{ alertId: string; userId: string; issuedAtMs: number } | null> {
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'], issuer: 'vitalwatch' });
      const claims = alertActionSchema.parse(payload);
      return { alertId: claims.alert, userId: claims.sub, issuedAtMs: claims.iat_ms };
    } catch (err) {
      if (err instanceof joseErrors.JOSEError || err instanceof z.ZodError) return null;
      throw err;
    }
  }
}

/** An opaque refresh token: the client keeps the value, the database only its hash. */
export function newRefreshToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashToken(token) };
}

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
