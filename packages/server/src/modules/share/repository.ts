import type { ShareLink } from '@vitalwatch/shared';
import { and, desc, eq, gt, isNull } from 'drizzle-orm';
import type { Tx } from '../../db/index.ts';
import { shareLinks } from '../../db/schema.ts';

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

/** The link of a token hash while it lives (not revoked, not expired). */
export const findLive = async (tx: Tx, tokenHash: string): Promise<ShareLinkRow | undefined> =>
  (
    await tx
      .select()
      .from(shareLinks)
      .where(
        and(
          eq(shareLinks.tokenHash, tokenHash),
          isNull(shareLinks.revokedAt),
          gt(shareLinks.expiresAt, new Date()),
        ),
      )
      .limit(1)
  )[0];

/** Revokes one of the user's live links; undefined when there is none such. */
export const revoke = async (tx: Tx, id: string, userId: string): Promise<ShareLinkRow | undefined> =>
  (
    await tx
      .update(shareLinks)
      .set({ revokedAt: new Date() })
      .where(and(eq(shareLinks.id, id), eq(shareLinks.userId, userId), isNull(shareLinks.revokedAt)))
      .returning()
  )[0];

export const present = (row: ShareLinkRow): ShareLink => ({
  _id: row.id,
  deviceId: row.deviceId,
  createdAt: row.createdAt.toISOString(),
  expiresAt: row.expiresAt.toISOString(),
  revokedAt: row.revokedAt?.toISOString() ?? null,
});
