import { and, eq, gt, isNull, ne, or, sql } from 'drizzle-orm';
import type { Tx } from '../../db/index.ts';
import { pushSubscriptions, refreshTokens, users } from '../../db/schema.ts';

export type UserRow = typeof users.$inferSelect;
export type NewUser = typeof users.$inferInsert;

export const findUserById = async (tx: Tx, id: string) =>
  (await tx.select().from(users).where(eq(users.id, id)).limit(1))[0];

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
  row: { userId: string; family: string; tokenHash: string; expiresAt: Date },
) => {
  await tx.insert(refreshTokens).values(row);
};

export const findRefreshToken = async (tx: Tx, tokenHash: string) =>
  (await tx.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, tokenHash)).limit(1))[0];

/** Retires a live token in exchange for a successor; false when it was not live (revoked, rotated, expired). */
export async function rotateRefreshToken(tx: Tx, id: string): Promise<boolean> {
  const now = new Date();
  const rows = await tx
    .update(refreshTokens)
    .set({ revokedAt: now, rotatedAt: now })
    .where(
      and(eq(refreshTokens.id, id), isNull(refreshTokens.revokedAt), gt(refreshTokens.expiresAt, new Date())),
    )
    .returning({ id: refreshTokens.id });
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

export const revokeFamily = async (tx: Tx, family: string) => {
  await tx
    .update(refreshTokens)
    .set({ revokedAt: new Date() })
    .where(and(eq(refreshTokens.family, family), isNull(refreshTokens.revokedAt)));
};

/** Ends every login of the user, except the one of `exceptFamily` when given. */
export const revokeAllForUser = async (tx: Tx, userId: string, exceptFamily?: string) => {
  await tx
    .update(refreshTokens)
    .set({ revokedAt: new Date() })
    .where(
      and(
        eq(refreshTokens.userId, userId),
        isNull(refreshTokens.revokedAt),
        exceptFamily ? ne(refreshTokens.family, exceptFamily) : undefined,
      ),
    );
};
