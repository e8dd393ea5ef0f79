import { createHash, createSecretKey, type KeyObject, randomBytes, randomUUID } from 'node:crypto';
import { ACCESS_TOKEN_TTL_S, type Role } from '@vitalwatch/shared';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { z } from 'zod';
import { Sealer } from './sealer.ts';

export interface AccessClaims {
  userId: string;
  role: Role;
  /** The login (refresh token family) the token belongs to; none for a token outside any login. */
  sessionId?: string;
  /** The login passed a second factor (TOTP or a recovery code). */
  twoFactor?: boolean;
}

export interface VerifiedClaims {
  userId: string;
  role: Role;
  /** Milliseconds since the epoch (the `iat_ms` claim; `iat` has whole seconds only). */
  issuedAtMs: number;
  /** What a logout revokes: the token's login (`sid`), or the token itself (`jti`) when it has none. */
  sessionId: string;
  /** Whether the token's login passed a second factor (the `mfa` claim). */
  twoFactor: boolean;
}

const claimsSchema = z.object({
  sub: z.string().min(1),
  exp: z.number().int().positive(),
  role: z.enum(['user', 'admin']),
  iat_ms: z.number().int().positive(),
  jti: z.string().min(1).max(100),
  sid: z.string().min(1).max(100).optional(),
  mfa: z.literal(true).optional(),
});

/** Access tokens whose signature was checked, kept so a client's next request skips the HMAC. */
const VERIFIED_TOKENS_MAX = 10_000;

export class TokenService {
  private readonly key: Uint8Array;
  /**
   * Claims of tokens already verified, by the whole token, with their expiry. Only what the
   * signature proves is kept (never whether the session is still open: that is asked every
   * time), and an entry past its `exp` is refused as the token itself would be.
   */
  private readonly verified = new Map<string, { claims: VerifiedClaims; expiresAtMs: number }>();
  /** Seals a rotated refresh token's successor; its key is derived, so never the signing key. */
  private readonly successors: Sealer;

  constructor(secret: string) {
    this.key = new TextEncoder().encode(secret);
    this.successors = new Sealer(secret, 'refresh-successor');
  }

  async signAccess({ userId, role, sessionId, twoFactor }: AccessClaims): Promise<string> {
    // Millisecond issue time, so ending a user's sessions refuses every token issued before that instant.
    return new SignJWT({
      role,
      iat_ms: Date.now(),
      ...(sessionId ? { sid: sessionId } : {}),
      ...(twoFactor ? { mfa: true } : {}),
    })
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
    const known = this.verified.get(token);
    if (known) {
      if (Date.now() < known.expiresAtMs) return known.claims;
      this.verified.delete(token);
      return null;
    }
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'], issuer: 'vitalwatch' });
      const claims = claimsSchema.parse(payload);
      const verified = {
        userId: claims.sub,
        role: claims.role,
        issuedAtMs: claims.iat_ms,
        sessionId: claims.sid ?? claims.jti,
        twoFactor: claims.mfa === true,
      };
      // jwtVerify refused a token without `exp`; it is in whole seconds.
      if (this.verified.size >= VERIFIED_TOKENS_MAX) this.verified.clear();
      this.verified.set(token, { claims: verified, expiresAtMs: claims.exp * 1000 });
      return verified;
    } catch (err) {
      if (err instanceof joseErrors.JOSEError || err instanceof z.ZodError) return null;
      throw err;
    }
  }

  /**
   * A rotated refresh token's successor, encrypted for its row. Only hashes of live tokens are
   * stored; this lets a retry within the grace get the same successor back.
   */
  sealSuccessor(token: string, rowId: string): string {
    return this.successors.seal(token, rowId);
  }

  /** The successor sealed for `rowId`, or null when the value does not open (altered, another key). */
  openSuccessor(sealed: string, rowId: string): string | null {
    return this.successors.open(sealed, rowId);
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
 * Short-lived tokens for one purpose (an alert's Acknowledge button, the step between a password
 * and a code), signed with a key of their own derived from the JWT secret, so one is never an
 * access token, and checked against the claims `schema` of that purpose.
 */
export class ScopedTokens<Claims extends { sub: string; purpose: string; iat_ms: number }> {
  private readonly key: KeyObject;

  private readonly scope: {
    keyLabel: string;
    purpose: Claims['purpose'];
    ttl: string;
    schema: z.ZodType<Claims>;
  };

  constructor(
    secret: string,
    scope: {
      keyLabel: string;
      purpose: Claims['purpose'];
      ttl: string;
      schema: z.ZodType<Claims>;
    },
  ) {
    this.scope = scope;
    // A KeyObject, so signing (on the push path too) does not import the key each time.
    this.key = createSecretKey(createHash('sha256').update(`${scope.keyLabel}:${secret}`).digest());
  }

  sign(subject: string, claims: Omit<Claims, 'sub' | 'purpose' | 'iat_ms'>): Promise<string> {
    return new SignJWT({ ...claims, purpose: this.scope.purpose, iat_ms: Date.now() })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(subject)
      .setIssuedAt()
      .setExpirationTime(this.scope.ttl)
      .setIssuer('vitalwatch')
      .sign(this.key);
  }

  /** The claims of a valid token of this purpose, or null (expired, forged, another purpose). */
  async verify(token: string): Promise<Claims | null> {
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'], issuer: 'vitalwatch' });
      return this.scope.schema.parse(payload);
    } catch (err) {
      if (err instanceof joseErrors.JOSEError || err instanceof z.ZodError) return null;
      throw err;
    }
  }
}

/**
 * Tokens scoped to one alert and one user, carried by a push notification so its Acknowledge
 * button works without opening (or signing in to) the app. They can do nothing else.
 */
export class AlertActionTokens {
  private readonly tokens: ScopedTokens<z.infer<typeof alertActionSchema>>;

  constructor(secret: string) {
    this.tokens = new ScopedTokens(secret, {
      keyLabel: 'alert-action',
      purpose: 'alert-ack',
      ttl: ALERT_ACTION_TTL,
      schema: alertActionSchema,
    });
  }

  sign(alertId: string, userId: string): Promise<string> {
    return this.tokens.sign(userId, { alert: alertId });
  }

  /** `{alertId, userId, issuedAtMs}` of a valid token, or null. */
  async verify(token: string): Promise<{ alertId: string; userId: string; issuedAtMs: number } | null> {
    const claims = await this.tokens.verify(token);
    return claims && { alertId: claims.alert, userId: claims.sub, issuedAtMs: claims.iat_ms };
  }
}

const receiptSchema = z.object({
  sub: z.string(),
  purpose: z.literal('push-receipt'),
  iat_ms: z.number(),
  alert: z.string(),
  notification: z.string(),
  /** The push subscription it was sent to (channel health); absent in tokens made before it. */
  subscription: z.string().optional(),
});

/**
 * Tokens scoped to one push message (its alert and its person), carried by the message so the
 * service worker can report it shown and opened. They can do nothing else.
 */
export class PushReceiptTokens {
  private readonly tokens: ScopedTokens<z.infer<typeof receiptSchema>>;

  constructor(secret: string) {
    this.tokens = new ScopedTokens(secret, {
      keyLabel: 'push-receipt',
      purpose: 'push-receipt',
      // A browser that was off may show the message when it wakes: the push service keeps it 1 h.
      ttl: '24h',
      schema: receiptSchema,
    });
  }

  sign(notificationId: string, alertId: string, userId: string, subscriptionId: string): Promise<string> {
    return this.tokens.sign(userId, {
      alert: alertId,
      notification: notificationId,
      subscription: subscriptionId,
    });
  }

  /** `{notificationId, alertId, userId, subscriptionId}` of a valid token, or null. */
  async verify(token: string): Promise<{
    notificationId: string;
    alertId: string;
    userId: string;
    subscriptionId: string | null;
  } | null> {
    const claims = await this.tokens.verify(token);
    return (
      claims && {
        notificationId: claims.notification,
        alertId: claims.alert,
        userId: claims.sub,
        subscriptionId: claims.subscription ?? null,
      }
    );
  }
}

/** An opaque refresh token: the client keeps the value, the database only its hash. */
export function newRefreshToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashToken(token) };
}

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
