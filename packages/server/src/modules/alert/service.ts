import {
  ALERT_MESSAGES,
  ALERTS_PAGE_DEFAULT_LIMIT,
  type AlertAllBody,
  type AlertLifecycle,
  type AlertRecord,
  type AlertTimelineEntry,
  isStorableInstant,
  type SnoozeRecord,
} from '@vitalwatch/shared';
import { canSeeDevice } from '../../access/devices.ts';
import type { AlertActionTokens } from '../../auth/tokens.ts';
import type { Db } from '../../db/index.ts';
import { badRequest, notFound, unauthorized } from '../../errors.ts';
import { isUuid } from '../../lib/ids.ts';
import type { IsoTime } from '../../lib/iso-time.ts';
import type { UserService } from '../user/service.ts';
import type { AlertEngine } from './engine.ts';
import { presentAlert, presentLifecycle } from './presenter.ts';
import * as repo from './repository.ts';
import * as snoozes from './snoozes.ts';
import { alertTimeline, recordReceipt } from './timeline.ts';

/** What an acknowledge or resolve call did: `changed` false when someone else was first. */
// What other modules use of alerts: only through this file.
export type { ConditionState } from './conditions.ts';
export { AlertEngine } from './engine.ts';
export { presentLifecycle, presentNewAlert } from './presenter.ts';
export { notifiedUsersOf } from './snoozes.ts';

export interface LifecycleOutcome {
  alert: AlertLifecycle;
  changed: boolean;
}

export interface AlertPage {
  alerts: AlertRecord[];
  nextCursor: string | null;
  total: number;
  unreadCount: number;
}

const RANK = { high: 0, medium: 1, low: 2 } as const;

/** Opaque to clients: the keyset ([rank:]recordedAt, id) of the last alert of a page. */
const encodeCursor = (
  a: { recordedAt: IsoTime; id: string; priority: keyof typeof RANK },
  byPriority: boolean,
) =>
  Buffer.from(
    `${byPriority ? `${RANK[a.priority]}:` : ''}${new Date(a.recordedAt).getTime()}.${a.id}`,
  ).toString('base64url');

function decodeCursor(cursor: string, byPriority: boolean): repo.Cursor {
  const match = /^(?:([0-2]):)?(\d{1,15})\.(.+)$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  const id = match?.[3];
  if (
    !match ||
    !id ||
    !isUuid(id) ||
    !isStorableInstant(Number(match[2])) ||
    (match[1] !== undefined) !== byPriority
  ) {
    throw badRequest(ALERT_MESSAGES.invalidCursor, [
      { path: 'cursor', message: ALERT_MESSAGES.invalidCursor },
    ]);
  }
  return {
    recordedAt: new Date(Number(match[2])),
    id,
    rank: match[1] === undefined ? undefined : Number(match[1]),
  };
}

/** The alert API: a user sees the alerts of the devices assigned to them, with their own read state. */
export class AlertService {
  private readonly db: Db;
  private readonly engine: AlertEngine;
  private readonly actions: AlertActionTokens;
  private readonly users: Pick<UserService, 'byId'>;

  constructor(db: Db, engine: AlertEngine, actions: AlertActionTokens, users: Pick<UserService, 'byId'>) {
    this.db = db;
    this.engine = engine;
    this.actions = actions;
    this.users = users;
  }

  async latest(userId: string, count: number): Promise<AlertRecord[]> {
    return (await repo.listLatest(this.db, userId, count)).map(presentAlert);
  }

  /** Every unresolved alert of the user's devices (the board's), at most `limit`, highest priority first. */
  async open(userId: string, limit: number): Promise<AlertRecord[]> {
    return (await repo.listOpen(this.db, userId, limit)).map(presentAlert);
  }

  async page(userId: string, body: AlertAllBody): Promise<AlertPage> {
    const {
      deviceId,
      from,
      to,
      status,
      priority,
      sort,
      cursor,
      limit = ALERTS_PAGE_DEFAULT_LIMIT,
    } = body ?? {};
    const byPriority = sort === 'priority';
    if (deviceId !== undefined && !(await canSeeDevice(this.db, userId, deviceId))) {
      throw notFound(ALERT_MESSAGES.deviceNotFound);
    }
    const filters: repo.AlertFilters = {
      deviceId,
      from: from ? new Date(from) : undefined,
      to: to ? new Date(to) : undefined,
      status,
      priority,
    };
    const keyset = cursor ? decodeCursor(cursor, byPriority) : undefined;
    const { rows, total, unread } = await repo.listPage(
      this.db,
      userId,
      filters,
      keyset,
      limit + 1,
      byPriority,
    );
    const pageRows = rows.slice(0, limit);
    const last = pageRows.at(-1);
    return {
      alerts: pageRows.map(presentAlert),
      nextCursor: rows.length > limit && last ? encodeCursor(last, byPriority) : null,
      total,
      unreadCount: unread,
    };
  }

  /** Marks for this user only; unknown ids, other users' alerts and already-read ones are left alone. */
  async markRead(userId: string, alertIds: string[]): Promise<string[]> {
    return repo.markRead(this.db, userId, [...new Set(alertIds.filter(isUuid))]);
  }

  /**
   * "I'm on it": active → acknowledged, once for everyone assigned (stops its escalation). The
   * second carer to press it gets the first one's acknowledgement back, unchanged.
   */
  acknowledge(userId: string, alertId: string, note: string | undefined): Promise<LifecycleOutcome> {
    return this.move(userId, alertId, 'acknowledged', note);
  }

  /**
   * The Acknowledge button of a push notification: its token names one alert and one user, and
   * acknowledges as that user while they are still assigned to the device.
   */
  async acknowledgeByToken(token: string): Promise<LifecycleOutcome> {
    const claims = await this.actions.verify(token);
    // Like an access token, it dies with the sessions it was issued under (password changed or reset).
    const user = claims && (await this.users.byId(claims.userId));
    if (!claims || !user || claims.issuedAtMs < user.tokensValidAfter.getTime()) {
      throw unauthorized(ALERT_MESSAGES.invalidActionToken);
    }
    return this.move(claims.userId, claims.alertId, 'acknowledged', undefined);
  }

  /** Marked handled (FALL, SOS, or any alert a carer has dealt with): → resolved. */
  resolve(userId: string, alertId: string, note: string | undefined): Promise<LifecycleOutcome> {
    return this.move(userId, alertId, 'resolved', note);
  }

  /** Snooze one device's alert type for this user only (FALL and SOS are refused by the schema). */
  async snooze(userId: string, deviceId: string, alertType: string, minutes: number): Promise<SnoozeRecord> {
    if (!(await canSeeDevice(this.db, userId, deviceId))) throw notFound(ALERT_MESSAGES.deviceNotFound);
    return snoozes.snooze(this.db, userId, deviceId, alertType, new Date(Date.now() + minutes * 60_000));
  }

  async unsnooze(userId: string, deviceId: string, alertType: string): Promise<void> {
    if (!(await canSeeDevice(this.db, userId, deviceId))) throw notFound(ALERT_MESSAGES.deviceNotFound);
    await snoozes.unsnooze(this.db, userId, deviceId, alertType);
  }

  snoozes(userId: string): Promise<SnoozeRecord[]> {
    return snoozes.activeSnoozes(this.db, userId, new Date());
  }

  /** Raised, notified (by which channel, delivered or not), escalated, acknowledged, resolved. */
  /** A browser showed, or its person opened, one push message of an alert: on the alert's timeline. */
  async recordReceipt(receipt: Parameters<typeof recordReceipt>[1]): Promise<void> {
    await recordReceipt(this.db, receipt);
  }

  async timeline(userId: string, alertId: string): Promise<AlertTimelineEntry[]> {
    const alert = isUuid(alertId) ? await repo.alertFor(this.db, userId, alertId) : undefined;
    if (!alert) throw notFound(ALERT_MESSAGES.alertNotFound);
    return alertTimeline(this.db, alert);
  }

  private async move(
    userId: string,
    alertId: string,
    to: 'acknowledged' | 'resolved',
    note: string | undefined,
  ): Promise<LifecycleOutcome> {
    if (!isUuid(alertId)) throw notFound(ALERT_MESSAGES.alertNotFound);
    const user = await this.users.byId(userId);
    if (!user) throw notFound(ALERT_MESSAGES.alertNotFound);
    const by = { userId, username: user.username };
    const moved = await repo.moveLifecycle(this.db, alertId, to, by, note || null, new Date());
    if (moved) {
      await this.engine.announceChange(moved);
      return { alert: presentLifecycle(moved), changed: true };
    }
    const current = await repo.lifecycleFor(this.db, userId, alertId);
    if (!current) throw notFound(ALERT_MESSAGES.alertNotFound);
    return { alert: presentLifecycle(current), changed: false };
  }
}
