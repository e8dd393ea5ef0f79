import {
  ACCOUNT_MESSAGES,
  type AccountLinkPurpose,
  type AccountSession,
  RESET_LINK_TTL_MINUTES,
  VERIFY_LINK_TTL_HOURS,
} from '@vitalwatch/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { FailureThrottle } from '../../auth/failure-throttle.ts';
import { hashPassword } from '../../auth/passwords.ts';
import { hashToken, newRefreshToken } from '../../auth/tokens.ts';
import type { Db, Tx } from '../../db/index.ts';
import { badRequest, DomainError, notFound, tooManyRequests } from '../../errors.ts';
import type { EventBus } from '../../lib/events.ts';
import { isUuid } from '../../lib/ids.ts';
import type { Mailer, OutgoingMail } from '../../mail/mailer.ts';
import type { UserRow, UserService } from '../user/service.ts';
import { closedMail, resetMail, verifyMail } from './mail.ts';
import * as repo from './repository.ts';

export interface AccountDeps {
  db: Db;
  users: UserService;
  /** TwoFactorService: `change` in the transaction that spends the user's code. */
  twoFactor: {
    withSecondFactor(user: UserRow, code: string, change: (tx: Tx) => Promise<void>): Promise<void>;
  };
  events: EventBus;
  mailer: Mailer;
  /** The web app's address, where mailed links lead. */
  appUrl: string;
  /** Reset requests per typed address (answered 429 whether or not an account uses it). */
  perAddress: FailureThrottle;
  /** Reset mails per account (past it no mail goes, and the answer is the same). */
  perAccount: FailureThrottle;
  log: FastifyBaseLogger;
}

/** A browser's request is written to its session's row at most this often. */
const SEEN_EVERY_MS = 60_000;
const SEEN_MAX_KEYS = 10_000;

const linkRefusal = (link: { usedAt: Date | null; expiresAt: Date } | undefined) => {
  if (!link)
    return badRequest(ACCOUNT_MESSAGES.linkInvalid, [
      { path: 'token', message: ACCOUNT_MESSAGES.linkInvalid },
    ]);
  if (link.usedAt) return new DomainError('linkUsed', ACCOUNT_MESSAGES.linkUsed);
  if (link.expiresAt.getTime() <= Date.now())
    return new DomainError('linkExpired', ACCOUNT_MESSAGES.linkExpired);
  return null;
};

/**
 * A person's own account without an admin: a forgotten password, the proof of an e-mail address,
 * the signed-in browsers, and closing the account. Mails go out after the answer (tracked by
 * `idle`), so how long a mail server takes never tells whether an address has an account.
 */
export class AccountService {
  private readonly deps: AccountDeps;
  private readonly sending = new Set<Promise<void>>();
  private readonly lastSeen = new Map<string, number>();

  constructor(deps: AccountDeps) {
    this.deps = deps;
  }

  /** Resolves once every mail asked for so far was handed to the mailer (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.sending.size > 0) await Promise.all([...this.sending]);
  }

  /** Work done after the answer (a link written and mailed), tracked by `idle`. */
  private later(work: () => Promise<void>, what: string): void {
    const done = work()
      .catch((err: unknown) => this.deps.log.error({ err }, `${what} failed`))
      .finally(() => this.sending.delete(done));
    this.sending.add(done);
  }

  private send(mail: OutgoingMail): void {
    this.later(() => this.deps.mailer.send(mail), `mail "${mail.subject}"`);
  }

  private link(purpose: AccountLinkPurpose, token: string): string {
    const page = purpose === 'reset' ? 'reset-password' : 'verify-email';
    return `${this.deps.appUrl}/${page}?token=${encodeURIComponent(token)}`;
  }

  /**
   * A reset link for the account of `email`, if any, with the same work and answer either way:
   * a link row is written for an unknown address too (a decoy without an account, never mailed,
   * never accepted), and the mail goes out after the answer, so neither the database nor a mail
   * server tells whether an account has the address. Returns the account's id for the audit
   * log, never for the answer.
   */
  async requestReset(email: string): Promise<string | null> {
    const address = email.trim().toLowerCase();
    const addressKey = `address:${address}`;
    const wait = await this.deps.perAddress.blockedFor(addressKey);
    if (wait > 0) throw tooManyRequests(ACCOUNT_MESSAGES.resetTooMany, wait);
    await this.deps.perAddress.fail(addressKey);
    const user = await repo.accountByEmail(this.deps.db, address);
    const accountKey = `account:${user?.id ?? 'none'}`;
    const quiet = (await this.deps.perAccount.blockedFor(accountKey)) > 0;
    await this.deps.perAccount.fail(accountKey);
    const { token, hash } = newRefreshToken();
    await repo.insertLink(this.deps.db, {
      userId: user?.id ?? null,
      purpose: 'reset',
      tokenHash: hash,
      email: user?.email ?? address,
      expiresAt: new Date(Date.now() + RESET_LINK_TTL_MINUTES * 60_000),
    });
    this.later(() => repo.pruneLinks(this.deps.db), 'pruning old links');
    if (user && !quiet) this.send(resetMail(user, this.link('reset', token)));
    return user?.id ?? null;
  }

  /** Whether a mailed link still works. */
  async linkState(
    token: string,
    purpose: AccountLinkPurpose,
  ): Promise<'valid' | 'expired' | 'used' | 'invalid'> {
    const link = await repo.findLink(this.deps.db, hashToken(token), purpose);
    const refusal = linkRefusal(link);
    if (!refusal) return 'valid';
    if (!link?.userId) return 'invalid';
    return link.usedAt ? 'used' : 'expired';
  }

  /** The link's one use in `tx`, or the refusal (invalid 400, used or expired 410). */
  private async spend(tx: Tx, token: string, purpose: AccountLinkPurpose) {
    const link = await repo.findLink(tx, hashToken(token), purpose);
    const refusal = linkRefusal(link);
    if (refusal || !link) throw refusal;
    const spent = await repo.spendLink(tx, link.id);
    if (!spent?.userId) throw new DomainError('linkUsed', ACCOUNT_MESSAGES.linkUsed);
    return { ...spent, userId: spent.userId };
  }

  /**
   * A new password from a reset link: every session ends (their sockets close), other reset links
   * stop working, and the address counts as proved. Two-factor sign-in stays as it was.
   */
  async resetPassword(token: string, newPassword: string): Promise<string> {
    const passwordHash = await hashPassword(newPassword);
    const userId = await this.deps.db.transaction(async (tx) => {
      const link = await this.spend(tx, token, 'reset');
      if (!(await this.deps.users.replacePassword(tx, link.userId, passwordHash))) throw refusedLink();
      await repo.spendLinksOf(tx, link.userId, 'reset');
      await repo.markVerified(tx, link.userId, link.email);
      return link.userId;
    });
    this.deps.events.emit('sessionsEnded', userId);
    return userId;
  }

  async verifyEmail(token: string): Promise<string> {
    return this.deps.db.transaction(async (tx) => {
      const link = await this.spend(tx, token, 'verify');
      await repo.markVerified(tx, link.userId, link.email);
      return link.userId;
    });
  }

  /** Mails a verification link to the account's address; false when it is verified already. */
  async sendVerification(userId: string): Promise<boolean> {
    const user = await this.deps.users.byId(userId);
    if (!user) throw notFound('User not found');
    if (user.emailVerifiedAt) return false;
    const key = `account:${userId}`;
    const wait = await this.deps.perAccount.blockedFor(key);
    if (wait > 0) throw tooManyRequests(ACCOUNT_MESSAGES.resetTooMany, wait);
    await this.deps.perAccount.fail(key);
    const { token, hash } = newRefreshToken();
    await repo.insertLink(this.deps.db, {
      userId,
      purpose: 'verify',
      tokenHash: hash,
      email: user.email,
      expiresAt: new Date(Date.now() + VERIFY_LINK_TTL_HOURS * 3_600_000),
    });
    this.send(verifyMail(user, this.link('verify', token)));
    return true;
  }

  // ---- sessions ----

  /** An authenticated request of the login `sessionId`: its browser and address, written at most once a minute. */
  seen(who: { userId: string; sessionId: string }, userAgent: string | undefined, ip: string): void {
    if (!isUuid(who.sessionId)) return;
    const now = Date.now();
    if (now - (this.lastSeen.get(who.sessionId) ?? 0) < SEEN_EVERY_MS) return;
    if (this.lastSeen.size >= SEEN_MAX_KEYS) this.lastSeen.clear();
    this.lastSeen.set(who.sessionId, now);
    repo
      .upsertClient(this.deps.db, {
        family: who.sessionId,
        userId: who.userId,
        userAgent: userAgent?.slice(0, 300) ?? null,
        ip,
      })
      .catch((err: unknown) => this.deps.log.warn({ err }, 'session use not recorded'));
  }

  async sessions(who: { userId: string; sessionId: string }): Promise<AccountSession[]> {
    const rows = await repo.liveSessions(this.deps.db, who.userId);
    return rows.map((r) => ({
      id: r.id,
      userAgent: r.user_agent,
      ip: r.ip,
      signedInAt: r.signed_in.toISOString(),
      lastUsedAt: r.last_used.toISOString(),
      current: r.id === who.sessionId,
    }));
  }

  /** Ends one of the caller's sessions (404 for any other); its sockets close. */
  async endSession(userId: string, id: string): Promise<void> {
    const live = await repo.liveSessions(this.deps.db, userId);
    if (!live.some((s) => s.id === id)) throw notFound(ACCOUNT_MESSAGES.sessionNotFound);
    this.lastSeen.delete(id);
    await this.deps.users.endLogins(userId, [id]);
  }

  /** Ends every session of the caller but the calling one; how many ended. */
  async endOtherSessions(who: { userId: string; sessionId: string }): Promise<number> {
    const others = (await repo.liveSessions(this.deps.db, who.userId))
      .map((s) => s.id)
      .filter((id) => id !== who.sessionId);
    await this.deps.users.endLogins(who.userId, others);
    return others.length;
  }

  // ---- closing ----

  /**
   * Closes the account with its password (and a code when two-factor is on): devices it owns
   * alone pass to their next carer, then the row goes with its sessions, push subscriptions,
   * share links, the care-circle invitations it sent and memberships (cascades). The last admin is refused. Returns the handovers.
   */
  async close(userId: string, password: string, code: string | undefined) {
    const user = await this.deps.users.confirmPassword(userId, password, 'password');
    let passed: { device_id: string; user_id: string }[] = [];
    const closeIn = async (tx: Tx) => {
      if (user.role === 'admin' && !(await repo.lockAdmins(tx)).some((id) => id !== userId))
        throw new DomainError('lastAdmin', ACCOUNT_MESSAGES.lastAdminCloses);
      passed = await repo.passSoleOwnedDevices(tx, userId);
      await repo.deleteUser(tx, userId);
    };
    if (user.totpSecret) {
      if (!code)
        throw badRequest(ACCOUNT_MESSAGES.codeNeeded, [
          { path: 'code', message: ACCOUNT_MESSAGES.codeNeeded },
        ]);
      await this.deps.twoFactor.withSecondFactor(user, code, closeIn);
    } else await this.deps.db.transaction(closeIn);
    this.deps.events.emit('sessionsEnded', userId);
    this.send(closedMail(user));
    return { user, passed };
  }
}

const refusedLink = () => badRequest(ACCOUNT_MESSAGES.linkInvalid);
