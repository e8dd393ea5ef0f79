import { and, desc, eq, gt, isNull } from 'drizzle-orm';
import { maySee } from '../../access/audience.ts';
import type { Tx } from '../../db/index.ts';
import { devices, shareLinks, users } from '../../db/schema.ts';

export type ShareLinkRow = typeof shareLinks.$inferSelect;

export const insertLink = async (
  tx: Tx,
  row: { tokenHash: string; deviceId: string; userId: string; expiresAt: Date },
): Promise<ShareLinkRow> => (await tx.insert(shareLinks).values(row).returning())[0]!;

/** The caller's links to a device, newest first (live, expired and revoked). */
export const linksOf = (tx: Tx, deviceId: string, userId: string): Promise<ShareLinkRow[]> =>
  tx
    .select()
    .from(shareLinks)
    .where(and(eq(shareLinks.deviceId, deviceId), eq(shareLinks.userId, userId)))
    .orderBy(desc(shareLinks.createdAt))
    .limit(50);

/**
 * The link's maker is still assigned to its device. Deleting the user or the device deletes its
 * links (foreign keys); taking the device from the user leaves them, serving nothing meanwhile.
 */
const makerAssigned = maySee(shareLinks.userId, shareLinks.deviceId);

/** The link of a token hash while it lives (not revoked, not expired, its maker still assigned), with its device's name. */
export const findLive = async (
  tx: Tx,
  tokenHash: string,
): Promise<(ShareLinkRow & { deviceName: string }) | undefined> =>
  (
    await tx
      .select({ link: shareLinks, deviceName: devices.deviceName })
      .from(shareLinks)
      .innerJoin(devices, eq(devices.id, shareLinks.deviceId))
      .where(
        and(
          eq(shareLinks.tokenHash, tokenHash),
          isNull(shareLinks.revokedAt),
          gt(shareLinks.expiresAt, new Date()),
          makerAssigned,
        ),
      )
      .limit(1)
  ).map((row) => ({ ...row.link, deviceName: row.deviceName }))[0];

/** Revokes a live link (one of `userId`'s, or anyone's when not given); undefined when none such. */
export const revoke = async (tx: Tx, id: string, userId?: string): Promise<ShareLinkRow | undefined> =>
  (
    await tx
      .update(shareLinks)
      .set({ revokedAt: new Date() })
      .where(
        and(
          eq(shareLinks.id, id),
          userId === undefined ? undefined : eq(shareLinks.userId, userId),
          isNull(shareLinks.revokedAt),
        ),
      )
      .returning()
  )[0];

const adminColumns = {
  link: shareLinks,
  deviceName: devices.deviceName,
  username: users.username,
  fullName: users.fullName,
  assigned: makerAssigned,
};
export type AdminRow = {
  link: ShareLinkRow;
  deviceName: string;
  username: string;
  fullName: string;
  assigned: boolean;
};

const adminQuery = (tx: Tx) =>
  tx
    .select(adminColumns)
    .from(shareLinks)
    .innerJoin(devices, eq(devices.id, shareLinks.deviceId))
    .innerJoin(users, eq(users.id, shareLinks.userId));

/** Every link with its device and maker, newest first, at most `limit`. */
export const allLinks = (tx: Tx, limit: number): Promise<AdminRow[]> =>
  adminQuery(tx).orderBy(desc(shareLinks.createdAt), desc(shareLinks.id)).limit(limit);

export const adminLinkById = async (tx: Tx, id: string): Promise<AdminRow | undefined> =>
  (await adminQuery(tx).where(eq(shareLinks.id, id)).limit(1))[0];
