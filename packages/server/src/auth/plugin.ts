import type { Role } from '@vitalwatch/shared';
import { SERVER_MESSAGES } from '@vitalwatch/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { forbidden, invalidToken, unauthorized } from '../errors.ts';
import type { UserService } from '../modules/user/service.ts';
import { requires } from './requirement.ts';
import type { TokenService } from './tokens.ts';

export interface AuthContext {
  userId: string;
  role: Role;
  /** The session of the caller's access token (its login, or the token itself): what logout ends. */
  sessionId: string;
}

/** Whether a role may act without a second factor at sign-in (TwoFactorService.mayOmit). */
export type TwoFactorRule = (role: Role) => boolean;

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
  }
}

/** The token of `Authorization: Bearer <token>`; the scheme's name in any case (RFC 9110). */
export const bearerToken = (header: string | undefined): string | undefined => {
  const match = header?.match(/^Bearer\s+(\S+)$/i);
  return match?.[1];
};

/**
 * Who is calling: a valid access token for a user who still exists, issued after the user's
 * sessions were last ended (password reset), of a session no logout ended, with a second factor
 * where the role needs one (REQUIRE_ADMIN_2FA). Read from the database (one query for all); the
 * HTTP guard reuses a lookup of this process for SESSION_CACHE_MS, forgotten at once when this
 * process ends the user's sessions or changes their role. The role comes from the database, not
 * the token, so a demotion (or a promotion to a role that needs two factors) takes effect at once.
 */
export async function authenticateToken(
  users: Pick<UserService, 'sessionUser'>,
  tokens: TokenService,
  token: string,
  mayOmitTwoFactor: TwoFactorRule,
): Promise<AuthContext | null> {
  const claims = await tokens.verifyAccess(token);
  if (!claims) return null;
  const user = await users.sessionUser(claims.userId, claims.sessionId);
  if (!user || user.sessionRevoked) return null;
  if (claims.issuedAtMs < user.tokensValidAfter.getTime()) return null;
  if (!claims.twoFactor && !mayOmitTwoFactor(user.role)) return null;
  return { userId: user.id, role: user.role, sessionId: claims.sessionId };
}

/** onRequest hooks (they run before body validation, so a guest gets 401, not 400): `requireAuth` for any signed-in user, `requireRole('admin')` for admins only. */
export function authGuards(
  /** `sessionUser`, or its cached form (`UserService.recentSessionUser`). */
  users: Pick<UserService, 'sessionUser'>,
  tokens: TokenService,
  mayOmitTwoFactor: TwoFactorRule,
  /** Told of every authenticated request (Profile → Sessions keeps each login's browser and last use). */
  seen: (auth: AuthContext, request: FastifyRequest) => void = () => {},
) {
  const requireAuth = requires('signed-in', async (request: FastifyRequest, _reply: FastifyReply) => {
    const token = bearerToken(request.headers.authorization);
    if (!token) throw unauthorized(SERVER_MESSAGES.unauthenticated);
    const auth = await authenticateToken(users, tokens, token, mayOmitTwoFactor);
    if (!auth) throw invalidToken();
    request.auth = auth;
    seen(auth, request);
  });
  const requireRole = (role: Role) =>
    requires('role', async (request: FastifyRequest, reply: FastifyReply) => {
      await requireAuth(request, reply);
      if (request.auth?.role !== role) throw forbidden();
    });
  return { requireAuth, requireRole };
}

/** The authenticated caller; only call behind a guard. */
export const caller = (request: FastifyRequest): AuthContext => {
  if (!request.auth) throw unauthorized();
  return request.auth;
};
