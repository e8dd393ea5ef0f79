import { z } from 'zod';
import { envelope } from './common.ts';
import { healthRecord } from './health.ts';

/** How long a read-only link may live: a day, a week (the default offer) or a month. */
export const SHARE_DURATIONS_DAYS = [1, 7, 30] as const;

export const SHARE_MESSAGES = {
  created: 'Share link created',
  revoked: 'Share link revoked',
  listed: 'Share links fetched',
  notFound: 'This link has expired or was revoked',
  daysInvalid: 'A link lasts 1, 7 or 30 days',
} as const;

/** `POST /api/v1/share/create`: a link to one of the caller's devices. */
export const createShareBody = z.object({
  deviceId: z.string().min(1).max(64),
  days: z.literal(SHARE_DURATIONS_DAYS, { error: SHARE_MESSAGES.daysInvalid }),
});

export const shareLink = z.object({
  _id: z.string(),
  deviceId: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
  revokedAt: z.string().nullable(),
});
export type ShareLink = z.infer<typeof shareLink>;

/** The new link and its token, shown this once (the server keeps only its hash). */
export const createShareResponse = envelope(z.object({ link: shareLink, token: z.string() }));
export const shareLinksResponse = envelope(z.object({ links: z.array(shareLink) }));
export const listSharesBody = z.object({ deviceId: z.string().min(1).max(64) });

/** What a link shows someone without an account: the device's name, until when, its newest reading. */
export const sharedDeviceResponse = envelope(
  z.object({ deviceName: z.string(), expiresAt: z.string(), latest: healthRecord.nullable() }),
);
export type SharedDevice = z.infer<typeof sharedDeviceResponse>['data'];
