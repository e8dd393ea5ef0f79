import {
  isRecoveryCode,
  type PublicUser,
  SERVER_MESSAGES,
  type TotpSetup,
  TWO_FACTOR_MESSAGES,
  type TwoFactorChallenge,
} from '@vitalwatch/shared';
import type { FailureThrottle } from '../../auth/failure-throttle.ts';
import { verifyPassword } from '../../auth/passwords.ts';
import type { TwoFactorRule } from '../../auth/plugin.ts';
import type { Sealer } from '../../auth/sealer.ts';
import type { TokenService } from '../../auth/tokens.ts';
import {
  matchTotpStep,
  newRecoveryCodes,
  newTotpSecret,
  type RecoveryCodeHasher,
  type TwoFactorChallenges,
  totpSetupFor,
} from '../../auth/two-factor.ts';
import type { Db, Tx } from '../../db/index.ts';
import {
  badRequest,
  conflict,
  forbidden,
  isDomainError,
  notFound,
  tooManyRequests,
  unauthorized,
} from '../../errors.ts';
import * as repo from './repository.ts';
import { accountKey, type Session, type UserService } from './service.ts';

export interface TwoFactorPolicy {
  /** REQUIRE_ADMIN_2FA: admins sign in with a second factor, and set one up at their next sign-in. */
  requireForAdmins: boolean;
}

/** Whether a role may sign in (and keep a session) without a second factor under `policy`. */
export const twoFactorRule =
  (policy: TwoFactorPolicy): TwoFactorRule =>
  (role) =>
    !(role === 'admin' && policy.requireForAdmins);

export interface TwoFactorDeps {
  db: Db;
  users: UserService;
  tokens: TokenService;
  /** Seals TOTP secrets for their user's row (purpose `totp-secret`). */
  secrets: Sealer;
  recoveryHasher: RecoveryCodeHasher;
  challenges: TwoFactorChallenges;
  /** The sign-in failure throttle: wrong codes count with wrong passwords, per account. */
  throttle: FailureThrottle;
  policy: TwoFactorPolicy;
}

/** How a second factor was proven. */
export type SecondFactor = 'totp' | 'recovery-code';

export type SignInResult = { session: Session; recoveryCodes?: string[] } | TwoFactorChallenge;

const invalidCode = () => unauthorized(TWO_FACTOR_MESSAGES.invalidCode);
/** A challenge that already opened its login: to the client, expired like any other. */
const spentChallenge = () => unauthorized(TWO_FACTOR_MESSAGES.challengeExpired);
const wrongPassword = () =>
  badRequest(TWO_FACTOR_MESSAGES.wrongPassword, [
    { path: 'password', message: TWO_FACTOR_MESSAGES.wrongPassword },
  ]);

/**
 * Two-factor sign-in (TOTP, RFC 6238, and single-use recovery codes): setting it up, the second
 * step of a sign-in, turning it off, new recovery codes. A code is accepted once: the step it
 * belongs to must come after the last step accepted, checked and recorded in one statement.
 */
export class TwoFactorService {
  /** Whether the policy lets this role sign in (or keep a session) without a second factor. */
  readonly mayOmit: TwoFactorRule;

  private readonly deps: TwoFactorDeps;

  constructor(deps: TwoFactorDeps) {
    this.deps = deps;
    this.mayOmit = twoFactorRule(deps.policy);
  }

  /**
   * After a right password: a session, or the second step that is due. The account's failures are
   * forgotten only with the session: until then wrong codes go on counting with wrong passwords.
   */
  async afterPassword(user: repo.UserRow): Promise<SignInResult> {
    if (user.totpSecret) {
      const challengeToken = await this.deps.challenges.sign(user.id, 'verify');
      return { twoFactor: { challengeToken, mode: 'verify' } };
    }
    if (this.mayOmit(user.role)) {
      await this.deps.throttle.reset(accountKey(user.id));
      return { session: await this.deps.users.openSession(user) };
    }
    const setup = await this.beginSetup(user);
    const challengeToken = await this.deps.challenges.sign(user.id, 'setup');
    return { twoFactor: { challengeToken, mode: 'setup', setup } };
  }

  /**
   * The second step of a sign-in: a code (or, once set up, a recovery code) for the challenge the
   * password earned. Wrong codes count against the account like wrong passwords. A challenge opens
   * one login: its id is the login's, and a challenge whose login exists is refused like an expired one.
   */
  async completeSignIn(
    challengeToken: string,
    code: string,
  ): Promise<{ session: Session; factor: SecondFactor; recoveryCodes?: string[]; userId: string }> {
    const challenge = await this.deps.challenges.verify(challengeToken);
    if (!challenge) throw unauthorized(TWO_FACTOR_MESSAGES.challengeExpired);
    const user = await repo.findUserById(this.deps.db, challenge.userId);
    // A password changed since (or an account deleted) voids the challenge.
    if (!user || challenge.issuedAtMs < user.tokensValidAfter.getTime())
      throw unauthorized(TWO_FACTOR_MESSAGES.challengeExpired);
    const key = accountKey(user.id);
    await this.assertNotLocked(key);
    const { users } = this.deps;
    const family = challenge.loginId;
    if (challenge.mode === 'setup') {
      // Two setups racing with one challenge both pass this; confirmSetup's locked row refuses the second.
      if (await repo.familyExists(this.deps.db, user.id, family)) throw spentChallenge();
      const recoveryCodes = await this.confirmSetup(user.id, code).catch((err: unknown) =>
        this.failed(key, err),
      );
      await this.deps.throttle.reset(key);
      const session = await users.openSession(await this.findUser(user.id), { twoFactor: true, family });
      return { session, factor: 'totp', recoveryCodes, userId: user.id };
    }
    // The user's row is locked, so two codes sent with one challenge take turns: one login at most.
    const passed = await this.deps.db.transaction(async (tx) => {
      const current = await repo.lockUser(tx, user.id);
      if (!current || (await repo.familyExists(tx, user.id, family))) return 'spent';
      const factor = await this.checkCode(tx, current, code);
      return factor && { factor, refreshToken: await users.addLoginToken(tx, user.id, family, true) };
    });
    if (passed === 'spent') throw spentChallenge();
    if (!passed) return this.failed(key, invalidCode());
    await this.deps.throttle.reset(key);
    const session = await users.sessionOf(user, family, passed.refreshToken, true);
    return { session, factor: passed.factor, userId: user.id };
  }

  /** Whose sign-in a challenge is (for the audit log of a refused code), or null. */
  async challengedUser(challengeToken: string): Promise<string | null> {
    return (await this.deps.challenges.verify(challengeToken))?.userId ?? null;
  }

  /** Profile: a new secret to scan, after the password again. Turned on by `enable`. */
  async startSetup(userId: string, password: string): Promise<TotpSetup> {
    const user = await this.findUser(userId);
    if (user.totpSecret) throw conflict(TWO_FACTOR_MESSAGES.alreadyEnabled);
    await this.checkPassword(user, password);
    return this.beginSetup(user);
  }

  /**
   * Profile: the first code from the app turns it on; the caller's session counts as two-factor
   * from now, with a new access token. Every other session of the user ends: none opened with the
   * password alone outlives it (it could turn the second factor off again).
   */
  async enable(
    who: { userId: string; sessionId: string },
    code: string,
  ): Promise<{ user: PublicUser; recoveryCodes: string[]; accessToken: string }> {
    const key = accountKey(who.userId);
    await this.assertNotLocked(key);
    const recoveryCodes = await this.confirmSetup(who.userId, code).catch((err: unknown) =>
      this.failed(key, err),
    );
    await this.deps.throttle.reset(key);
    await repo.markFamilyTwoFactor(this.deps.db, who.userId, who.sessionId);
    await this.deps.users.endOtherSessions(who.userId, who.sessionId);
    const user = await this.findUser(who.userId);
    const accessToken = await this.deps.tokens.signAccess({
      userId: user.id,
      role: user.role,
      sessionId: who.sessionId,
      twoFactor: true,
    });
    return { user: await this.deps.users.present(user), recoveryCodes, accessToken };
  }

  /** Profile: off again, with the password and a code; never for an admin where the policy requires it. */
  async disable(userId: string, password: string, code: string): Promise<PublicUser> {
    const user = await this.findUser(userId);
    if (!user.totpSecret) throw conflict(TWO_FACTOR_MESSAGES.notEnabled);
    if (!this.mayOmit(user.role)) throw forbidden(TWO_FACTOR_MESSAGES.requiredForAdmins);
    await this.checkPassword(user, password);
    await this.withCode(user, code, (tx) =>
      repo.setTwoFactor(tx, userId, { totpSecret: null, totpPending: null, totpLastStep: null }, []),
    );
    return this.deps.users.present(await this.findUser(userId));
  }

  /** Profile: a code replaces every recovery code with new ones. */
  async renewRecoveryCodes(
    userId: string,
    code: string,
  ): Promise<{ user: PublicUser; recoveryCodes: string[] }> {
    const user = await this.findUser(userId);
    if (!user.totpSecret) throw conflict(TWO_FACTOR_MESSAGES.notEnabled);
    const recoveryCodes = newRecoveryCodes();
    await this.withCode(user, code, (tx) =>
      repo.replaceRecoveryCodes(tx, userId, this.hashes(recoveryCodes)),
    );
    return { user: await this.deps.users.present(await this.findUser(userId)), recoveryCodes };
  }

  /** A new pending secret for the user, replacing any earlier unconfirmed one. */
  private async beginSetup(user: repo.UserRow): Promise<TotpSetup> {
    const secret = newTotpSecret();
    await repo.updateUser(this.deps.db, user.id, { totpPending: this.deps.secrets.seal(secret, user.id) });
    return totpSetupFor(secret, user.username);
  }

  /** The pending secret becomes the user's when `code` is its current code; returns new recovery codes. */
  private async confirmSetup(userId: string, code: string): Promise<string[]> {
    if (isRecoveryCode(code)) throw invalidCode();
    const recoveryCodes = newRecoveryCodes();
    await this.deps.db.transaction(async (tx) => {
      const user = await repo.lockUser(tx, userId);
      if (!user) throw notFound('User not found');
      if (user.totpSecret) throw conflict(TWO_FACTOR_MESSAGES.alreadyEnabled);
      const secret = user.totpPending ? this.deps.secrets.open(user.totpPending, user.id) : null;
      if (!secret) throw badRequest(TWO_FACTOR_MESSAGES.noPendingSetup);
      const step = matchTotpStep(secret, code);
      if (step === null) throw invalidCode();
      await repo.setTwoFactor(
        tx,
        userId,
        { totpSecret: user.totpPending, totpPending: null, totpLastStep: step },
        this.hashes(recoveryCodes),
      );
    });
    return recoveryCodes;
  }

  /** `change` in the transaction that spends the user's `code` (throttled like a sign-in); refused without it. */
  withSecondFactor(user: repo.UserRow, code: string, change: (tx: Tx) => Promise<void>): Promise<void> {
    return this.withCode(user, code, change);
  }

  /**
   * Runs `change` in the transaction that accepts `code` (throttled like a sign-in), so a code
   * is spent only when the change is made.
   */
  private async withCode(user: repo.UserRow, code: string, change: (tx: Tx) => Promise<void>): Promise<void> {
    const key = accountKey(user.id);
    await this.assertNotLocked(key);
    const accepted = await this.deps.db.transaction(async (tx) => {
      const factor = await this.checkCode(tx, user, code);
      if (factor) await change(tx);
      return factor !== null;
    });
    if (!accepted) await this.failed(key, invalidCode());
    await this.deps.throttle.reset(key);
  }

  /** Spends `code` if it is good: a TOTP code of a step after the last accepted, or an unused recovery code. */
  private async checkCode(tx: Tx, user: repo.UserRow, code: string): Promise<SecondFactor | null> {
    if (isRecoveryCode(code))
      return (await repo.spendRecoveryCode(tx, user.id, this.deps.recoveryHasher.hash(code)))
        ? 'recovery-code'
        : null;
    const secret = user.totpSecret ? this.deps.secrets.open(user.totpSecret, user.id) : null;
    if (!secret) return null;
    const step = matchTotpStep(secret, code);
    if (step === null) return null;
    return (await repo.advanceTotpStep(tx, user.id, step)) ? 'totp' : null;
  }

  private async checkPassword(user: repo.UserRow, password: string): Promise<void> {
    const key = accountKey(user.id);
    await this.assertNotLocked(key);
    if (!(await verifyPassword(password, user.passwordHash))) await this.failed(key, wrongPassword());
  }

  private async assertNotLocked(key: string): Promise<void> {
    const retryAfter = await this.deps.throttle.blockedFor(key);
    if (retryAfter > 0) throw tooManyRequests(SERVER_MESSAGES.tooManyLogins, retryAfter);
  }

  /** Counts a refused code or password against the account, then refuses. */
  private async failed(key: string, err: unknown): Promise<never> {
    if (isDomainError(err, 'invalidInput', 'unauthenticated')) await this.deps.throttle.fail(key);
    throw err;
  }

  private async findUser(userId: string): Promise<repo.UserRow> {
    const user = await repo.findUserById(this.deps.db, userId);
    if (!user) throw notFound('User not found');
    return user;
  }

  private hashes(codes: string[]): string[] {
    return codes.map((c) => this.deps.recoveryHasher.hash(c));
  }
}
