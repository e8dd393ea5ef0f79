import type { CircleRole } from '@vitalwatch/shared';
import { and, asc, eq, gt, isNull, sql } from 'drizzle-orm';
import { browsersNotReceiving, hasWorkingChannel } from '../../channel-health/working-channel.ts';
import { circleInvitations } from '../../db/circle-schema.ts';
import type { Tx } from '../../db/index.ts';
import { devices, deviceUsers, users } from '../../db/schema.ts';

export type InvitationRow = typeof circleInvitations.$inferSelect;

/** Everyone assigned to the device, owners first, then by when they joined. */
export const listMembers = (tx: Tx, deviceId: string) =>
  tx
    .select({
      userId: deviceUsers.userId,
      fullName: users.fullName,
      circleRole: deviceUsers.circleRole,
      contactRole: deviceUsers.contactRole,
      since: deviceUsers.createdAt,
      pendingSince: deviceUsers.pendingSince,
      browsersNotReceiving: browsersNotReceiving(deviceUsers.userId),
      workingChannel: hasWorkingChannel(deviceUsers.userId),
    })
    .from(deviceUsers)
    .innerJoin(users, eq(users.id, deviceUsers.userId))
    .where(eq(deviceUsers.deviceId, deviceId))
    .orderBy(
      sql`case ${deviceUsers.circleRole} when 'owner' then 0 else 1 end`,
      asc(deviceUsers.createdAt),
      asc(deviceUsers.userId),
    );

export const findMember = async (tx: Tx, deviceId: string, userId: string) =>
  (
    await tx
      .select()
      .from(deviceUsers)
      .where(and(eq(deviceUsers.deviceId, deviceId), eq(deviceUsers.userId, userId)))
      .limit(1)
  )[0];

/** Locks the device's row: owner counts stay true until the transaction ends. */
export const lockDevice = async (tx: Tx, deviceId: string) =>
  (await tx.select().from(devices).where(eq(devices.id, deviceId)).for('update').limit(1))[0];

export const confirmedOwnerCount = async (tx: Tx, deviceId: string): Promise<number> =>
  (
    await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(deviceUsers)
      .where(
        and(
          eq(deviceUsers.deviceId, deviceId),
          eq(deviceUsers.circleRole, 'owner'),
          isNull(deviceUsers.pendingSince),
        ),
      )
  )[0]!.n;

export const confirmedOwnerEmails = async (tx: Tx, deviceId: string): Promise<string[]> =>
  (
    await tx
      .select({ email: users.email })
      .from(deviceUsers)
      .innerJoin(users, eq(users.id, deviceUsers.userId))
      .where(
        and(
          eq(deviceUsers.deviceId, deviceId),
          eq(deviceUsers.circleRole, 'owner'),
          isNull(deviceUsers.pendingSince),
        ),
      )
  ).map((r) => r.email);

export const updateMember = (
  tx: Tx,
  deviceId: string,
  userId: string,
  patch: Partial<Pick<typeof deviceUsers.$inferInsert, 'circleRole' | 'contactRole' | 'pendingSince'>>,
) =>
  tx
    .update(deviceUsers)
    .set(patch)
    .where(and(eq(deviceUsers.deviceId, deviceId), eq(deviceUsers.userId, userId)));

export const deleteMember = async (tx: Tx, deviceId: string, userId: string): Promise<boolean> =>
  (
    await tx
      .delete(deviceUsers)
      .where(and(eq(deviceUsers.deviceId, deviceId), eq(deviceUsers.userId, userId)))
      .returning({ userId: deviceUsers.userId })
  ).length === 1;

export const insertMember = (tx: Tx, deviceId: string, userId: string, circleRole: CircleRole) =>
  tx.insert(deviceUsers).values({ deviceId, userId, circleRole }).onConflictDoNothing().returning();

export const findUserByEmail = async (tx: Tx, email: string) =>
  (
    await tx
      .select({ id: users.id, role: users.role })
      .from(users)
      .where(sql`lower(${users.email}) = ${email}`)
      .limit(1)
  )[0];

export const findUserName = async (tx: Tx, userId: string) =>
  (
    await tx.select({ fullName: users.fullName, email: users.email }).from(users).where(eq(users.id, userId))
  )[0];

const isOpen = (now: Date) =>
  and(
    isNull(circleInvitations.acceptedAt),
    isNull(circleInvitations.revokedAt),
    gt(circleInvitations.expiresAt, now),
  );

export const openInvitations = (tx: Tx, deviceId: string, now: Date) =>
  tx
    .select()
    .from(circleInvitations)
    .where(and(eq(circleInvitations.deviceId, deviceId), isOpen(now)))
    .orderBy(asc(circleInvitations.createdAt));

/** A new invitation; an open one to the same address for the same device is withdrawn (replaced). */
export async function replaceInvitation(
  tx: Tx,
  invitation: typeof circleInvitations.$inferInsert,
  now: Date,
): Promise<number> {
  const replaced = await tx
    .update(circleInvitations)
    .set({ revokedAt: now })
    .where(
      and(
        eq(circleInvitations.deviceId, invitation.deviceId),
        eq(circleInvitations.email, invitation.email),
        isOpen(now),
      ),
    )
    .returning({ id: circleInvitations.id });
  await tx.insert(circleInvitations).values(invitation);
  return replaced.length;
}

export const revokeInvitation = async (tx: Tx, deviceId: string, id: string, now: Date) =>
  (
    await tx
      .update(circleInvitations)
      .set({ revokedAt: now })
      .where(and(eq(circleInvitations.id, id), eq(circleInvitations.deviceId, deviceId), isOpen(now)))
      .returning()
  )[0];

export const findInvitation = async (tx: Tx, tokenHash: string) =>
  (await tx.select().from(circleInvitations).where(eq(circleInvitations.tokenHash, tokenHash)).limit(1))[0];

/** Marks the invitation used, only if it still is open: of two acceptances at once, one wins. */
export const useInvitation = async (tx: Tx, id: string, userId: string, now: Date) =>
  (
    await tx
      .update(circleInvitations)
      .set({ acceptedAt: now, acceptedBy: userId })
      .where(and(eq(circleInvitations.id, id), isOpen(now)))
      .returning()
  )[0];
