import type { AdminShareLink, ShareLink, ShareLinkState } from '@vitalwatch/shared';
import type { AdminRow, ShareLinkRow } from './repository.ts';

export const present = (row: ShareLinkRow): ShareLink => ({
  _id: row.id,
  deviceId: row.deviceId,
  createdAt: row.createdAt.toISOString(),
  expiresAt: row.expiresAt.toISOString(),
  revokedAt: row.revokedAt?.toISOString() ?? null,
});

const stateOf = (row: AdminRow, now: Date): ShareLinkState =>
  row.link.revokedAt
    ? 'revoked'
    : row.link.expiresAt <= now
      ? 'expired'
      : row.assigned
        ? 'active'
        : 'no-access';

export const presentAdmin = (row: AdminRow, now = new Date()): AdminShareLink => ({
  ...present(row.link),
  deviceName: row.deviceName,
  creator: { _id: row.link.userId, username: row.username, fullName: row.fullName },
  state: stateOf(row, now),
});
