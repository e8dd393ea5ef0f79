import { and, count, eq, gt, isNotNull, isNull, lt, ne, or, sql } from 'drizzle-orm';
import { flatRows } from '../../db/flat-rows.ts';
import type { Db, Tx } from '../../db/index.ts';
import { onceFor } from '../../db/once-for.ts';
import { quickRead } from '../../db/pipelined-reads.ts';
import { pushSubscriptions, recoveryCodes, refreshTokens, revokedSessions, users } from '../../db/schema.ts';

export type UserRow = typeof users.$inferSelect;
export type NewUser = typeof users.$inferInsert;

export const findUserById = async (tx: Tx, id: string) =>
  (await tx.select().from(users).where(eq(users.id, id)).limit(1))[0];

/** The columns `presentUser` reads: not the password hash, the pending secret or the token cut-off. */
const presentable = {
  id: users.id,
  fullName: users.fullName,
  username: users.username,
  email: users.email,
  role: users.role,
  alertEmails: users.alertEmails,
  channelChecks: users.channelChecks,
  quietHours: users.quietHours,
  temperatureUnit: users.temperatureUnit,
  totpSecret: users.totpSecret,
  emailVerifiedAt: users.emailVerifiedAt,
  createdAt: users.createdAt,
  updatedAt: users.updatedAt,
};
/** What `presentUser` reads of a user's row (`presentable`); the profile reads only these columns. */
export type PresentableUser = Pick<UserRow, keyof typeof presentable>;

/**
 * The user with what their profile shows beside the row, in one round trip: their push
 * subscriptions' ids (oldest first) and how many recovery codes are unused. Only the columns it
 * shows (the whole row, hash and all, was read on every signed-in page). The most frequent read of
 * a signed-in page: prepared once a database (see `preparedRows` for why).
 */
const profileLookup = (db: Db) =>
  flatRows(
    db
      .select({
        user: presentable,
        fcmTokens: sql<string[]>`array(select ps.id::text from ${pushSubscriptions} ps
        where ps.user_id = ${sql.placeholder('id')}::uuid order by ps.created_at)`,
        recoveryCodesLeft: sql<number>`(select count(*)::int from ${recoveryCodes} rc
        where rc.user_id = ${sql.placeholder('id')}::uuid)`,
      })
      .from(users)
      .where(eq(users.id, sql.placeholder('id')))
      .limit(1)
      .prepare(quickRead('find_profile')),
  );

export const findProfile = async (db: Db, id: string) =>
  (await onceFor(db, profileLookup).execute({ id }))[0];

/** The columns `findUserForSession` reads, and whether a logout ended the session. */
const sessionLookup = (db: Db) =>
  flatRows(
    db
      .select({
        id: users.id,
        role: users.role,
        tokensValidAfter: users.tokensValidAfter,
        sessionRevoked:
          sql`exists (select 1 from ${revokedSessions} where ${revokedSessions.sessionId} = ${sql.placeholder('sessionId')})`.mapWith(
            Boolean,
          ),
      })
      .from(users)
      .where(eq(users.id, sql.placeholder('id')))
      .limit(1)
      .prepare(quickRead('find_user_for_session')),
  );

/**
 * The user an access token names, and whether its session was ended by a logout: one indexed
 * round trip, as the user lookup alone was, on every authenticated request and socket check.
 */
export async function findUserForSession(db: Db, id: string, sessionId: string) {
  return (await onceFor(db, sessionLookup).execute({ id, sessionId }))[0];
}

/** Refuses the access tokens of the user's sessions until `expiresAt`; prunes the entries no token needs any more. */
export async function revokeSessions(
  tx: Tx,
  { sessionIds, userId, expiresAt }: { sessionIds: string[]; userId: string; expiresAt: Date },
): Promise<void> {
  await tx.delete(revokedSessions).where(lt(revokedSessions.expiresAt, new Date()));
  if (sessionIds.length === 0) return;
  await tx
    .insert(revokedSessions)
    .values(sessionIds.map((sessionId) => ({ sessionId, userId, expiresAt })))
    .onConflictDoNothing();
}

/** Login accepts a username or an email, both case-insensitive. */
export const findUserByLogin = async (tx: Tx, identifier: string) =>
  (
    await tx
      .select()
      .from(users)
      .where(
        or(
          sql`lower(${users.username}) = lower(${identifier})`,
          sql`lower(${users.email}) = lower(${identifier})`,
        ),
      )
      .limit(1)
  )[0];

/** Which of username / email already belong to another user. */
export async function findConflicts(tx: Tx, username: string, email: string, exceptId?: string) {
  const rows = await tx
    .select({ id: users.id, username: users.username, email: users.email })
    .from(users)
    .where(
      or(sql`lower(${users.username}) = lower(${username})`, sql`lower(${users.email}) = lower(${email})`),
    );
  const others = rows.filter((r) => r.id !== exceptId);
  return {
    username: others.some((r) => r.username.toLowerCase() === username.toLowerCase()),
    email: others.some((r) => r.email.toLowerCase() === email.toLowerCase()),
  };
}

export const insertUser = async (tx: Tx, user: NewUser) =>
  (await tx.insert(users).values(user).returning())[0]!;

export const updateUser = async (tx: Tx, id: string, patch: Partial<NewUser>) =>
  (
    await tx
      .update(users)
      .set({ ...patch, updatedAt: new Date() })
      .where(eq(users.id, id))
      .returning()
  )[0];

export const pushSubscriptionIds = async (tx: Tx, userId: string) =>
  (
    await tx
      .select({ id: pushSubscriptions.id })
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.userId, userId))
      .orderBy(pushSubscriptions.createdAt)
  ).map((r) => r.id);

/** Insert or move a browser's subscription to this user (a browser belongs to whoever signed in last). */
export async function upsertPushSubscription(
  tx: Tx,
  sub: { userId: string; endpoint: string; p256dh: string; auth: string; userAgent: string | null },
) {
  await tx
    .insert(pushSubscriptions)
    .values(sub)
    .onConflictDoUpdate({
      target: pushSubscriptions.endpoint,
      set: { userId: sub.userId, p256dh: sub.p256dh, auth: sub.auth, userAgent: sub.userAgent },
    });
}

export const insertRefreshToken = async (
  tx: Tx,
  row: { userId: string; family: string; tokenHash: string; expiresAt: Date; twoFactor: boolean },
) => {
  await tx.insert(refreshTokens).values(row);
};

export const findRefreshToken = async (tx: Tx, tokenHash: string) =>
  (await tx.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, tokenHash)).limit(1))[0];

export type RefreshTokenRow = typeof refreshTokens.$inferSelect;

/**
 * The token's row, locked until the transaction ends: refreshes of one token take turns, so the
 * second sees the first one's rotation (and its successor) instead of rotating again.
 */
export const lockRefreshToken = async (tx: Tx, tokenHash: string): Promise<RefreshTokenRow | undefined> =>
  (
    await tx.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, tokenHash)).limit(1).for('update')
  )[0];

/** Retires a token in exchange for its successor, kept sealed for retries within the grace. */
export async function markRotated(tx: Tx, id: string, sealedSuccessor: string, at: Date): Promise<void> {
  await tx
    .update(refreshTokens)
    .set({ revokedAt: at, rotatedAt: at, successor: sealedSuccessor })
    .where(eq(refreshTokens.id, id));
}

/** Forgets the successors of a login's tokens rotated before `before`: their grace is over. */
export async function forgetOldSuccessors(tx: Tx, userId: string, family: string, before: Date) {
  await tx
    .update(refreshTokens)
    .set({ successor: null })
    .where(
      and(
        eq(refreshTokens.userId, userId),
        eq(refreshTokens.family, family),
        isNotNull(refreshTokens.successor),
        lt(refreshTokens.rotatedAt, before),
      ),
    );
}

/** Whether the login `family` of the user was ever opened (any refresh token, live or not). */
export async function familyExists(tx: Tx, userId: string, family: string): Promise<boolean> {
  const rows = await tx
    .select({ id: refreshTokens.id })
    .from(refreshTokens)
    .where(and(eq(refreshTokens.userId, userId), eq(refreshTokens.family, family)))
    .limit(1);
  return rows.length === 1;
}

/** Whether a login still has a live refresh token (it was neither ended nor has it expired). */
export async function familyAlive(tx: Tx, family: string): Promise<boolean> {
  const rows = await tx
    .select({ id: refreshTokens.id })
    .from(refreshTokens)
    .where(
      and(
        eq(refreshTokens.family, family),
        isNull(refreshTokens.revokedAt),
        gt(refreshTokens.expiresAt, new Date()),
      ),
    )
    .limit(1);
  return rows.length === 1;
}

/** An ended login's tokens: live ones revoked, sealed successors of rotated ones forgotten. */
const endTokens = (now: Date) => ({
  revokedAt: sql`coalesce(${refreshTokens.revokedAt}, ${now.toISOString()}::timestamptz)`,
  successor: null,
});
const stillHeld = or(isNull(refreshTokens.revokedAt), isNotNull(refreshTokens.successor));

export const revokeFamily = async (tx: Tx, family: string) => {
  await tx
    .update(refreshTokens)
    .set(endTokens(new Date()))
    .where(and(eq(refreshTokens.family, family), stillHeld));
};

/** Ends every login of the user, except the one of `exceptFamily` when given; returns the logins ended. */
export const revokeAllForUser = async (tx: Tx, userId: string, exceptFamily?: string): Promise<string[]> => {
  const rows = await tx
    .update(refreshTokens)
    .set(endTokens(new Date()))
    .where(
      and(
        eq(refreshTokens.userId, userId),
        stillHeld,
        exceptFamily ? ne(refreshTokens.family, exceptFamily) : undefined,
      ),
    )
    .returning({ family: refreshTokens.family });
  return [...new Set(rows.map((r) => r.family))];
};

/** The user's row, locked until the transaction ends (two-factor setup takes turns). */
export const lockUser = async (tx: Tx, id: string) =>
  (await tx.select().from(users).where(eq(users.id, id)).limit(1).for('update'))[0];

/** Sets the user's two-factor columns and replaces the recovery codes with `codeHashes`. */
export async function setTwoFactor(
  tx: Tx,
  userId: string,
  patch: Pick<NewUser, 'totpSecret' | 'totpPending' | 'totpLastStep'>,
  codeHashes: string[],
): Promise<void> {
  await updateUser(tx, userId, patch);
  await replaceRecoveryCodes(tx, userId, codeHashes);
}

export async function replaceRecoveryCodes(tx: Tx, userId: string, codeHashes: string[]): Promise<void> {
  await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  if (codeHashes.length > 0)
    await tx.insert(recoveryCodes).values(codeHashes.map((codeHash) => ({ userId, codeHash })));
}

/** Uses up a recovery code: true when it was the user's and unused. */
export const spendRecoveryCode = async (tx: Tx, userId: string, codeHash: string) =>
  (
    await tx
      .delete(recoveryCodes)
      .where(and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.codeHash, codeHash)))
      .returning({ userId: recoveryCodes.userId })
  ).length === 1;

/** Records `step` as the last accepted TOTP step: false when it is not after the last one (a reused code). */
export const advanceTotpStep = async (tx: Tx, userId: string, step: number) =>
  (
    await tx
      .update(users)
      .set({ totpLastStep: step })
      .where(and(eq(users.id, userId), or(isNull(users.totpLastStep), lt(users.totpLastStep, step))))
      .returning({ id: users.id })
  ).length === 1;

export const recoveryCodesLeft = async (tx: Tx, userId: string) =>
  (await tx.select({ n: count() }).from(recoveryCodes).where(eq(recoveryCodes.userId, userId)))[0]?.n ?? 0;

/** The login `family` passed a second factor: its refreshed access tokens say so too. */
export async function markFamilyTwoFactor(tx: Tx, userId: string, family: string): Promise<void> {
  await tx
    .update(refreshTokens)
    .set({ twoFactor: true })
    .where(and(eq(refreshTokens.userId, userId), eq(refreshTokens.family, family)));
}
