import { randomUUID } from 'node:crypto';
import {
  ACCESS_TOKEN_TTL_S,
  type EditUserInput,
  type LoginInput,
  type PublicUser,
  type PushSubscriptionJson,
  type QuietHours,
  REFRESH_TOKEN_TTL_S,
  type Role,
  SERVER_MESSAGES,
  type SignupInput,
  type TemperatureUnit,
} from '@vitalwatch/shared';
import type { FailureThrottle } from '../../auth/failure-throttle.ts';
import { burnPasswordCheck, hashPassword, verifyPassword } from '../../auth/passwords.ts';
import { SessionCache } from '../../auth/session-cache.ts';
import { hashToken, newRefreshToken, type TokenService } from '../../auth/tokens.ts';
import type { Db, Tx } from '../../db/index.ts';
import { isUniqueViolation } from '../../db/sql-state.ts';
import { badRequest, conflict, notFound, tooManyRequests, unauthorized } from '../../errors.ts';
import type { EventBus } from '../../lib/events.ts';
import { presentUser } from './presenter.ts';
import * as repo from './repository.ts';

// What other modules use of users: only through this file.
export { presentUser, storedQuietHours } from './presenter.ts';
export type { UserRow } from './repository.ts';

export interface Session {
  accessToken: string;
  refreshToken: string;
  user: PublicUser;
}

/** The failure-throttle key of an account: wrong passwords and wrong second factors count together. */
export const accountKey = (userId: string) => `account:${userId}`;

/** How long after a rotation the old refresh token may still be presented (a lost answer, two tabs). */
export const REFRESH_RETRY_GRACE_MS = 30_000;

/**
 * A logout refuses its session's access tokens until the last of them expires. The margin covers
 * one signed by a refresh that raced the logout (signed just after the logout committed).
 */
const REVOKED_SESSION_TTL_MS = ACCESS_TOKEN_TTL_S * 1000 + 60_000;

/**
 * Access tokens of these sessions (logins) of the user are refused from now on, by every server
 * process: each authenticated request's one user lookup also asks revoked_sessions (by its primary
 * key), so no process keeps a copy to go stale.
 */
const refuseAccessTokens = (tx: Tx, userId: string, sessionIds: string[]) =>
  repo.revokeSessions(tx, { sessionIds, userId, expiresAt: new Date(Date.now() + REVOKED_SESSION_TTL_MS) });

/** What a refresh hands out: the login's next refresh token, for the user of that login. */
interface Exchange {
  userId: string;
  family: string;
  refreshToken: string;
  /** The login passed a second factor. */
  twoFactor: boolean;
}

export class UserService {
  private readonly db: Db;
  private readonly tokens: TokenService;
  /** Failures per account: wrong passwords (sign-in, change-password) and second factors. */
  private readonly throttle: FailureThrottle;
  private readonly events: EventBus;
  /** Whether a role may hold a session without a second factor (TwoFactorService.mayOmit). */
  private readonly mayOmitTwoFactor: (role: Role) => boolean;
  /** Session lookups of the last SESSION_CACHE_MS, for the HTTP guard; forgotten on `sessionsEnded`. */
  private readonly recentSessions: SessionCache<Awaited<ReturnType<typeof repo.findUserForSession>>>;

  constructor(
    db: Db,
    tokens: TokenService,
    throttle: FailureThrottle,
    events: EventBus,
    mayOmitTwoFactor: (role: Role) => boolean = () => true,
  ) {
    this.db = db;
    this.tokens = tokens;
    this.throttle = throttle;
    this.events = events;
    this.mayOmitTwoFactor = mayOmitTwoFactor;
    this.recentSessions = new SessionCache((id, sessionId) => repo.findUserForSession(db, id, sessionId));
    events.on('sessionsEnded', (userId) => this.recentSessions.forget(userId));
  }

  /** 409 naming the taken field(s), so the form can say which one. */
  async assertAvailable(tx: Tx, username: string, email: string, exceptId?: string): Promise<void> {
    const taken = await repo.findConflicts(tx, username, email, exceptId);
    const issues = [
      ...(taken.username ? [{ path: 'username', message: SERVER_MESSAGES.usernameTaken }] : []),
      ...(taken.email ? [{ path: 'email', message: SERVER_MESSAGES.emailTaken }] : []),
    ];
    if (issues.length > 0) throw conflict(issues[0]!.message, issues);
  }

  /** A new account; `verified` when someone vouches for the address (an admin adding the user). */
  async createUser(
    input: Omit<SignupInput, 'cnfPassword'> & { role?: Role },
    verified = false,
  ): Promise<repo.UserRow> {
    const passwordHash = await hashPassword(input.password);
    return this.db.transaction(async (tx) => {
      await this.assertAvailable(tx, input.username, input.email);
      try {
        return await repo.insertUser(tx, {
          fullName: input.fullName,
          username: input.username,
          email: input.email.toLowerCase(),
          passwordHash,
          role: input.role ?? 'user',
          emailVerifiedAt: verified ? new Date() : null,
        });
      } catch (err) {
        // Two sign-ups racing for one name: the unique index decides.
        if (isUniqueViolation(err)) throw conflict(SERVER_MESSAGES.usernameTaken);
        throw err;
      }
    });
  }

  async signup(input: SignupInput): Promise<Session> {
    const user = await this.createUser(input);
    return this.openSession(user);
  }

  /**
   * The user whose name and password these are; the session (or a second step) is TwoFactorService's
   * call. A right password forgets no failure: the account's count starts again only once a
   * sign-in is complete (TwoFactorService), so knowing the password never buys fresh guesses at
   * the code.
   */
  async checkPassword({ username, password }: LoginInput): Promise<repo.UserRow> {
    const user = await repo.findUserByLogin(this.db, username.trim());
    // Failures count per account, whichever of its names (username or e-mail) was typed; for a
    // name no account has, per name.
    const key = user ? accountKey(user.id) : `name:${username.trim().toLowerCase()}`;
    const retryAfter = await this.throttle.blockedFor(key);
    if (retryAfter > 0) throw tooManyRequests(SERVER_MESSAGES.tooManyLogins, retryAfter);
    if (!user) await burnPasswordCheck(password);
    const ok = user ? await verifyPassword(password, user.passwordHash) : false;
    if (!user || !ok) {
      await this.throttle.fail(key);
      throw unauthorized(SERVER_MESSAGES.invalidCredentials);
    }
    return user;
  }

  /**
   * Rotate: the used token is revoked and a successor issued in the same login. The same token
   * again within REFRESH_RETRY_GRACE_MS of its rotation, while its login lives on (the browser
   * lost the answer, two tabs refreshed at once), gets that same successor back with a fresh access
   * token: not theft, and one login never becomes several. Any other reuse of a retired token is a
   * replay: someone else may hold it, so that whole login ends.
   */
  async refresh(refreshToken: string): Promise<{ accessToken: string; refreshToken: string }> {
    // Refusals are decided inside and thrown outside, so ending a replayed login is committed.
    const granted = await this.db.transaction((tx) => this.exchange(tx, hashToken(refreshToken)));
    if (granted && 'endedLoginOf' in granted) {
      // The replayed login's sockets close now, on every server process.
      this.events.emit('sessionsEnded', granted.endedLoginOf);
      throw unauthorized(SERVER_MESSAGES.invalidRefresh);
    }
    if (!granted) throw unauthorized(SERVER_MESSAGES.invalidRefresh);
    const user = await repo.findUserById(this.db, granted.userId);
    // An admin's login without a second factor, where one is required, ends: the next sign-in asks for it.
    if (!user || (!granted.twoFactor && !this.mayOmitTwoFactor(user.role)))
      throw unauthorized(SERVER_MESSAGES.invalidRefresh);
    const accessToken = await this.tokens.signAccess({
      userId: user.id,
      role: user.role,
      sessionId: granted.family,
      twoFactor: granted.twoFactor,
    });
    return { accessToken, refreshToken: granted.refreshToken };
  }

  /**
   * The refresh token's successor; null for a refusal, `endedLoginOf` its user when a replay ended
   * the login. Parallel calls for one token take turns on its row.
   */
  private async exchange(tx: Tx, tokenHash: string): Promise<Exchange | { endedLoginOf: string } | null> {
    const row = await repo.lockRefreshToken(tx, tokenHash);
    if (!row) return null;
    const now = new Date();
    if (!row.revokedAt && row.expiresAt > now) {
      const refreshToken = await this.addLoginToken(tx, row.userId, row.family, row.twoFactor);
      await repo.markRotated(tx, row.id, this.tokens.sealSuccessor(refreshToken, row.id), now);
      await repo.forgetOldSuccessors(
        tx,
        row.userId,
        row.family,
        new Date(now.getTime() - REFRESH_RETRY_GRACE_MS),
      );
      return { userId: row.userId, family: row.family, refreshToken, twoFactor: row.twoFactor };
    }
    if (row.rotatedAt && now.getTime() - row.rotatedAt.getTime() <= REFRESH_RETRY_GRACE_MS) {
      const successor = row.successor ? this.tokens.openSuccessor(row.successor, row.id) : null;
      // Within the grace nothing is ended: a login ended meanwhile (logout) stays ended, that is all.
      if (!successor || !(await repo.familyAlive(tx, row.family))) return null;
      return { userId: row.userId, family: row.family, refreshToken: successor, twoFactor: row.twoFactor };
    }
    if (!row.revokedAt) return null;
    await repo.revokeFamily(tx, row.family);
    await refuseAccessTokens(tx, row.userId, [row.family]);
    return { endedLoginOf: row.userId };
  }

  /**
   * Ends the caller's login: the calling session and the login of `refreshToken` (without one,
   * every login of the user), refresh tokens and access tokens at once, on every server process.
   * Their open sockets close on the `sessionsEnded` notice.
   */
  async logout(who: { userId: string; sessionId: string }, refreshToken: string | undefined): Promise<void> {
    const row = refreshToken ? await repo.findRefreshToken(this.db, hashToken(refreshToken)) : undefined;
    await this.db.transaction(async (tx) => {
      const ended = [who.sessionId];
      if (!refreshToken) ended.push(...(await repo.revokeAllForUser(tx, who.userId)));
      else if (row && row.userId === who.userId) {
        await repo.revokeFamily(tx, row.family);
        ended.push(row.family);
      }
      await refuseAccessTokens(tx, who.userId, [...new Set(ended)]);
    });
    this.events.emit('sessionsEnded', who.userId);
  }

  /** One query, as `present` would make three: the most frequent read of a signed-in page. */
  async profile(userId: string): Promise<PublicUser> {
    const found = await repo.findProfile(this.db, userId);
    if (!found) throw notFound('User not found');
    const { user, fcmTokens, recoveryCodesLeft } = found;
    return presentUser(user, fcmTokens, user.totpSecret ? recoveryCodesLeft : 0);
  }

  async updateName(userId: string, fullName: string): Promise<PublicUser> {
    const user = await repo.updateUser(this.db, userId, { fullName });
    if (!user) throw notFound('User not found');
    return this.present(user);
  }

  /** Opt in to (or out of) an email for every new alert on the user's devices. */
  async setAlertEmails(userId: string, enabled: boolean): Promise<PublicUser> {
    const user = await repo.updateUser(this.db, userId, { alertEmails: enabled });
    if (!user) throw notFound('User not found');
    return this.present(user);
  }

  /** Turn the daily checks of the user's browsers on or off (channel health). */
  async setChannelChecks(userId: string, enabled: boolean): Promise<PublicUser> {
    const user = await repo.updateUser(this.db, userId, { channelChecks: enabled });
    if (!user) throw notFound('User not found');
    return this.present(user);
  }

  /** How temperatures are shown to the user. */
  async setTemperatureUnit(userId: string, temperatureUnit: TemperatureUnit): Promise<PublicUser> {
    const user = await repo.updateUser(this.db, userId, { temperatureUnit });
    if (!user) throw notFound('User not found');
    return this.present(user);
  }

  /** Quiet hours for low-priority alerts (null turns them off). */
  async setQuietHours(userId: string, quietHours: QuietHours | null): Promise<PublicUser> {
    const user = await repo.updateUser(this.db, userId, { quietHours });
    if (!user) throw notFound('User not found');
    return this.present(user);
  }

  /**
   * A new password ends every other session of the user (someone changing it may suspect a
   * break-in): access tokens issued before now are refused and refresh tokens revoked, except the
   * login of `keepRefreshToken`. Returns the caller's new access token. A wrong current password
   * counts against the account like a failed sign-in (a stolen session must not test passwords
   * here without limit), and a locked account gets 429 here too.
   */
  async changePassword(
    userId: string,
    oldPassword: string,
    newPassword: string,
    keepRefreshToken?: string,
  ): Promise<string> {
    const user = await this.confirmPassword(userId, oldPassword, 'oldPassword');
    if (oldPassword === newPassword) {
      throw badRequest('New password must be different from current password', [
        { path: 'newPassword', message: 'New password must be different from current password' },
      ]);
    }
    const passwordHash = await hashPassword(newPassword);
    const kept = keepRefreshToken
      ? await repo.findRefreshToken(this.db, hashToken(keepRefreshToken))
      : undefined;
    const keptFamily = kept?.userId === userId ? kept.family : undefined;
    await this.endOtherSessions(userId, keptFamily, { passwordHash });
    return this.tokens.signAccess({
      userId: user.id,
      role: user.role,
      sessionId: keptFamily,
      twoFactor: keptFamily !== undefined && kept?.twoFactor === true,
    });
  }

  /**
   * The user, when `password` is theirs. A wrong one counts against the account like a failed
   * sign-in (a stolen session must not test passwords without limit) and is refused as a field
   * error on `field`; a locked account gets 429.
   */
  async confirmPassword(userId: string, password: string, field: string): Promise<repo.UserRow> {
    const user = await repo.findUserById(this.db, userId);
    if (!user) throw notFound('User not found');
    const key = accountKey(userId);
    const retryAfter = await this.throttle.blockedFor(key);
    if (retryAfter > 0) throw tooManyRequests(SERVER_MESSAGES.tooManyLogins, retryAfter);
    if (!(await verifyPassword(password, user.passwordHash))) {
      await this.throttle.fail(key);
      throw badRequest(SERVER_MESSAGES.wrongCurrentPassword, [
        { path: field, message: SERVER_MESSAGES.wrongCurrentPassword },
      ]);
    }
    return user;
  }

  /**
   * Ends these logins (refresh token families) of the user: their refresh tokens are revoked and
   * their access tokens refused on every server process; their sockets close on `sessionsEnded`.
   */
  async endLogins(userId: string, families: string[]): Promise<void> {
    if (families.length === 0) return;
    await this.db.transaction(async (tx) => {
      for (const family of families) await repo.revokeFamily(tx, family);
      await refuseAccessTokens(tx, userId, families);
    });
    this.events.emit('sessionsEnded', userId);
  }

  /**
   * Ends every session of the user but the login `keptFamily`, with `patch` in the same
   * transaction: every access token issued before now is refused (the caller needs a new one),
   * the other logins' refresh tokens are revoked, and sockets opened with refused tokens close.
   */
  async endOtherSessions(
    userId: string,
    keptFamily: string | undefined,
    patch: Partial<repo.NewUser> = {},
  ): Promise<void> {
    await this.db.transaction(async (tx) => {
      await repo.updateUser(tx, userId, { ...patch, tokensValidAfter: new Date() });
      await repo.revokeAllForUser(tx, userId, keptFamily);
    });
    this.events.emit('sessionsEnded', userId);
  }

  // ---- what other modules read and change of users (given this service by composition.ts) ----

  /** The user, if any; in the caller's transaction when given. */
  byId(id: string, tx: Tx = this.db): Promise<repo.UserRow | undefined> {
    return repo.findUserById(tx, id);
  }

  /** The user of a username or e-mail address, if any. */
  byLogin(identifier: string): Promise<repo.UserRow | undefined> {
    return repo.findUserByLogin(this.db, identifier);
  }

  /** The user an access token names, and whether a logout ended its session (`authenticateToken`). */
  sessionUser(id: string, sessionId: string) {
    return repo.findUserForSession(this.db, id, sessionId);
  }

  /**
   * `sessionUser` as this process saw it within SESSION_CACHE_MS: changes made on this process are
   * seen at once. For the HTTP guard of a single process only (composition.ts): changes made on
   * another process would be seen up to that long later.
   */
  recentSessionUser(id: string, sessionId: string) {
    return this.recentSessions.get(id, sessionId);
  }

  /** The user's role changed (committed): this process's next request of theirs reads it. */
  roleChanged(id: string): void {
    this.recentSessions.forget(id);
  }

  /** The unit the user reads temperatures in (°F until they choose, and for a user who is gone). */
  async temperatureUnitOf(userId: string): Promise<TemperatureUnit> {
    return (await repo.findUserById(this.db, userId))?.temperatureUnit ?? 'F';
  }

  /** An admin's edit of name, username, e-mail and role, in the admin's transaction; undefined when gone. */
  editAccount(tx: Tx, id: string, input: EditUserInput): Promise<repo.UserRow | undefined> {
    return repo.updateUser(tx, id, { ...input, email: input.email.toLowerCase() });
  }

  /** Only the role (the configured admin at start-up). */
  async setRole(id: string, role: Role): Promise<void> {
    await repo.updateUser(this.db, id, { role });
    this.roleChanged(id);
  }

  /**
   * A password set for the user by someone else: every session ends (refresh tokens revoked,
   * access tokens refused), in the caller's transaction. False when there is no such user.
   */
  async replacePassword(tx: Tx, id: string, passwordHash: string): Promise<boolean> {
    const user = await repo.updateUser(tx, id, { passwordHash, tokensValidAfter: new Date() });
    if (!user) return false;
    await repo.revokeAllForUser(tx, id);
    return true;
  }

  /** The ids of the user's browsers subscribed to push, oldest first. */
  pushSubscriptionIds(userId: string): Promise<string[]> {
    return repo.pushSubscriptionIds(this.db, userId);
  }

  /** How many unused recovery codes the user has. */
  recoveryCodesLeft(userId: string): Promise<number> {
    return repo.recoveryCodesLeft(this.db, userId);
  }

  async saveFcmToken(userId: string, sub: PushSubscriptionJson, userAgent: string | null): Promise<void> {
    await repo.upsertPushSubscription(this.db, {
      userId,
      endpoint: sub.endpoint,
      p256dh: sub.keys.p256dh,
      auth: sub.keys.auth,
      userAgent: userAgent?.slice(0, 300) ?? null,
    });
  }

  async present(user: repo.UserRow): Promise<PublicUser> {
    const [fcmTokens, recoveryCodesLeft] = await Promise.all([
      repo.pushSubscriptionIds(this.db, user.id),
      user.totpSecret ? repo.recoveryCodesLeft(this.db, user.id) : 0,
    ]);
    return presentUser(user, fcmTokens, recoveryCodesLeft);
  }

  /** A new login of `user` (`family` names it); `twoFactor` when it passed a second factor. */
  async openSession(
    user: repo.UserRow,
    { twoFactor = false, family = randomUUID() }: { twoFactor?: boolean; family?: string } = {},
  ): Promise<Session> {
    const refreshToken = await this.addLoginToken(this.db, user.id, family, twoFactor);
    return this.sessionOf(user, family, refreshToken, twoFactor);
  }

  /** The session of a login whose first refresh token `addLoginToken` wrote (in the caller's transaction). */
  async sessionOf(
    user: repo.UserRow,
    family: string,
    refreshToken: string,
    twoFactor: boolean,
  ): Promise<Session> {
    const accessToken = await this.tokens.signAccess({
      userId: user.id,
      role: user.role,
      sessionId: family,
      twoFactor,
    });
    return { accessToken, refreshToken, user: await this.present(user) };
  }

  /** A new refresh token of the login `family`; the database keeps only its hash. */
  async addLoginToken(tx: Tx, userId: string, family: string, twoFactor: boolean): Promise<string> {
    const { token, hash } = newRefreshToken();
    await repo.insertRefreshToken(tx, {
      userId,
      family,
      tokenHash: hash,
      expiresAt: new Date(Date.now() + REFRESH_TOKEN_TTL_S * 1000),
      twoFactor,
    });
    return token;
  }
}
