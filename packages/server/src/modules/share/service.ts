import { randomBytes } from 'node:crypto';
import {
  type AdminShareLink,
  HEALTH_MESSAGES,
  type HealthRecord,
  type HistorySummary,
  SHARE_HISTORY_HOURS,
  SHARE_MESSAGES,
  SHARE_REPORT_DAYS,
  type ShareLink,
} from '@vitalwatch/shared';
import { canSeeDevice } from '../../access/devices.ts';
import { hashToken } from '../../auth/tokens.ts';
import type { Db } from '../../db/index.ts';
import { notFound } from '../../errors.ts';
import type { ExportService } from '../export/service.ts';
import type { ReadingsService } from '../readings/service.ts';
import { present, presentAdmin } from './presenter.ts';
import * as repo from './repository.ts';
import { type Period, servedWindow } from './window.ts';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const deviceNotFound = () => notFound(HEALTH_MESSAGES.notFound);

/** A live link: what its holder may read, and for how long. */
export interface LiveLink {
  id: string;
  deviceId: string;
  deviceName: string;
  expiresAt: Date;
}

/**
 * Read-only share links: a signed-in user makes, lists and revokes links to a device they may see;
 * anyone holding a live link reads that device's newest reading, its last 24 hours and its report
 * of the last 7 days. Tokens are 256 random bits; only their hash is stored.
 */
export class ShareService {
  private readonly db: Db;
  private readonly readings: Pick<ReadingsService, 'newest' | 'summary'>;
  private readonly exports: Pick<ExportService, 'report'>;

  constructor(
    db: Db,
    readings: Pick<ReadingsService, 'newest' | 'summary'>,
    exports: Pick<ExportService, 'report'>,
  ) {
    this.db = db;
    this.readings = readings;
    this.exports = exports;
  }

  /** A new link to a device the user may see (else 404); its token is shown this once. */
  async create(userId: string, deviceId: string, days: number): Promise<{ link: ShareLink; token: string }> {
    if (!(await canSeeDevice(this.db, userId, deviceId))) throw deviceNotFound();
    const token = randomBytes(32).toString('base64url');
    const link = await repo.insertLink(this.db, {
      tokenHash: hashToken(token),
      deviceId,
      userId,
      expiresAt: new Date(Date.now() + days * DAY_MS),
    });
    return { link: present(link), token };
  }

  /** The user's links to a device they may see (else 404), newest first. */
  async list(userId: string, deviceId: string): Promise<ShareLink[]> {
    if (!(await canSeeDevice(this.db, userId, deviceId))) throw deviceNotFound();
    return (await repo.linksOf(this.db, deviceId, userId)).map(present);
  }

  /** Revokes one of the user's live links (else 404); the link, and the user's links to its device now. */
  async revoke(userId: string, id: string): Promise<{ revoked: ShareLink; links: ShareLink[] }> {
    const link = await repo.revoke(this.db, id, userId);
    if (!link) throw notFound(SHARE_MESSAGES.notFound);
    return {
      revoked: present(link),
      links: (await repo.linksOf(this.db, link.deviceId, userId)).map(present),
    };
  }

  /** The live link of a token: unknown, expired, revoked and orphaned links all answer the same 404. */
  async live(token: string): Promise<LiveLink> {
    const link = await repo.findLive(this.db, hashToken(token));
    if (!link) throw notFound(SHARE_MESSAGES.notFound);
    return { id: link.id, deviceId: link.deviceId, deviceName: link.deviceName, expiresAt: link.expiresAt };
  }

  /** The device's newest reading, through a live link. */
  async latest(token: string): Promise<{ link: LiveLink; latest: HealthRecord | null }> {
    const link = await this.live(token);
    return { link, latest: await this.readings.newest(link.deviceId) };
  }

  /** The summary of the part of `asked` within the link's last 24 hours (400 when none of it is). */
  async history(token: string, asked: Period): Promise<Period & { summary: HistorySummary }> {
    const link = await this.live(token);
    const { from, to } = servedWindow(asked, SHARE_HISTORY_HOURS * HOUR_MS);
    return { from, to, summary: await this.readings.summary(link.deviceId, from, to) };
  }

  /** The period a report through a link covers: the part of `asked` within the last 7 days. */
  reportPeriod(asked: Period): Period {
    return servedWindow(asked, SHARE_REPORT_DAYS * DAY_MS);
  }

  /** The PDF report of the link's device over `period` (temperatures in °F: the holder has no profile). */
  report(link: LiveLink, period: Period, timeZone: string): Promise<PDFKit.PDFDocument> {
    return this.exports.report(link.deviceId, {
      deviceName: link.deviceName,
      ...period,
      timeZone,
      unit: 'F',
    });
  }

  // ---- admins ----

  /** Every link with its device, maker and state, newest first, at most `limit`. */
  async all(limit: number): Promise<AdminShareLink[]> {
    const now = new Date();
    return (await repo.allLinks(this.db, limit)).map((row) => presentAdmin(row, now));
  }

  /** Revokes anyone's live link (else 404): the link as revoked, and its maker's id. */
  async revokeAny(id: string): Promise<{ link: AdminShareLink; maker: string }> {
    const revoked = await repo.revoke(this.db, id);
    const row = revoked && (await repo.adminLinkById(this.db, revoked.id));
    if (!revoked || !row) throw notFound(SHARE_MESSAGES.adminNotFound);
    return { link: presentAdmin(row), maker: revoked.userId };
  }
}
