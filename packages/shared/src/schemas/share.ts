import { z } from 'zod';
import { envelope, isoDate } from './common.ts';
import { healthRecord, historySummary } from './health.ts';

/** How long a read-only link may live: a day, a week (the default offer) or a month. */
export const SHARE_DURATIONS_DAYS = [1, 7, 30] as const;
/**
 * All a link shows of the device's past (what its page asks for, nothing more): the summary of
 * the last 24 hours and the PDF report of the last 7 days, both ending now. Wider windows are
 * cut to these.
 */
export const SHARE_HISTORY_HOURS = 24;
export const SHARE_REPORT_DAYS = 7;
/** The admin's list of share links holds the newest this many. */
export const ADMIN_SHARE_LINKS_LIMIT = 500;

export const SHARE_MESSAGES = {
  created: 'Share link created',
  revoked: 'Share link revoked',
  listed: 'Share links fetched',
  notFound: 'This link has expired or was revoked',
  /** A link that cannot be one (cut short, mistyped): said in words, with what to do. */
  malformed: 'This link is not valid. It may have been cut short or mistyped.',
  malformedHint:
    'Copy the whole link again from the message it came in, or ask the person who shared it for a new one.',
  daysInvalid: 'A link lasts 1, 7 or 30 days',
  outsideWindow: `A share link shows only the last ${SHARE_HISTORY_HOURS} hours and the report of the last ${SHARE_REPORT_DAYS} days`,
  adminListed: 'Share links fetched',
  adminRevoked: 'Share link revoked',
  adminNotFound: 'No such live share link',
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

/** `POST /api/v1/shared/:token/history`: a window, cut to the last `SHARE_HISTORY_HOURS`. */
export const sharedHistoryBody = z
  .object({ from: isoDate, to: isoDate })
  .strict()
  .refine((b) => Date.parse(b.to) > Date.parse(b.from), { path: ['to'], message: 'to must be after from' });

/** The window served (after cutting) and its summary: readings and each vital's min, avg, max. */
export const sharedHistoryResponse = envelope(
  z.object({ from: z.string(), to: z.string(), summary: historySummary }),
);
export type SharedHistory = z.infer<typeof sharedHistoryResponse>['data'];

// ---- admin ----

/**
 * A link as the admin sees it: `active` serves; `expired` and `revoked` as named; `no-access`
 * while its maker is no longer assigned to the device (it serves nothing then).
 */
export const SHARE_LINK_STATES = ['active', 'expired', 'revoked', 'no-access'] as const;
export type ShareLinkState = (typeof SHARE_LINK_STATES)[number];
/** How the admin's Share Links screen names each state. */
export const SHARE_LINK_STATE_LABELS: Record<ShareLinkState, string> = {
  active: 'Active',
  expired: 'Expired',
  revoked: 'Revoked',
  'no-access': 'Maker lost access',
};

export const adminShareLink = shareLink.extend({
  deviceName: z.string(),
  creator: z.object({ _id: z.string(), username: z.string(), fullName: z.string() }),
  state: z.enum(SHARE_LINK_STATES),
});
export type AdminShareLink = z.infer<typeof adminShareLink>;
/** `GET /api/v1/admin/share-links`: every link, newest first (up to `ADMIN_SHARE_LINKS_LIMIT`). */
export const adminShareLinksResponse = envelope(z.object({ links: z.array(adminShareLink) }));
/** `POST /api/v1/admin/share-links/:id/revoke`: the link as it is now. */
export const adminShareLinkResponse = envelope(z.object({ link: adminShareLink }));
