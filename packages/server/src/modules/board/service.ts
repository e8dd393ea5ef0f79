import {
  BOARD_ALERTS_MAX,
  BOARD_MESSAGES,
  BOARD_SNAPSHOT_MAX_AGE_MS,
  BOARD_SPARK_BUCKETS,
  type BoardAlert,
  type BoardDeviceWire,
  type BoardLimits,
  type BoardSnapshotWire,
  type BoardSparkline,
  DEFAULT_ALARM_SETTINGS,
  effectiveAlarmSettings,
  VITAL_ALARM_TYPES,
} from '@vitalwatch/shared';
import type { Db } from '../../db/index.ts';
import { PrebuiltJson } from '../../http/prebuilt-json.ts';
import type { EventBus } from '../../lib/events.ts';
import type { AlertService } from '../alert/service.ts';
import * as repo from './repository.ts';
import { Slice } from './slice.ts';
import { SnapshotCache } from './snapshot-cache.ts';
import { SparklineSlots } from './sparkline-slots.ts';

/** Only what differs from the defaults goes out: most devices send null. */
function limitsOf(stored: unknown): BoardLimits {
  const settings = effectiveAlarmSettings(stored);
  if (settings === DEFAULT_ALARM_SETTINGS) return null;
  return Object.fromEntries(
    VITAL_ALARM_TYPES.map((t) => [
      t,
      { limit: settings.conditions[t].limit, critical: settings.conditions[t].critical },
    ]),
  ) as NonNullable<BoardLimits>;
}

/**
 * The care team's board: one snapshot of every device the user may see (direct or through a team),
 * in five queries whatever their number, each tile sent without what is at its usual value.
 */
export class BoardService {
  private readonly db: Db;
  private readonly alerts: AlertService;
  private readonly replies: SnapshotCache<PrebuiltJson>;
  private readonly sparklines = new SparklineSlots();

  /** @param events its `accessChanged` drops those users' cached boards (other processes': see `accessChanged`). */
  constructor(db: Db, alerts: AlertService, events: EventBus) {
    this.db = db;
    this.alerts = alerts;
    this.replies = new SnapshotCache((userId, at) => this.buildReply(userId, at), BOARD_SNAPSHOT_MAX_AGE_MS);
    events.on('accessChanged', (userIds) => this.accessChanged(userIds));
  }

  /**
   * These users gained or lost devices (committed): their next snapshot is built afresh, never one
   * of their cached builds. Called on this process's `accessChanged`, and by real time on hearing
   * another process's (through Redis), so a board lists no device taken away a moment ago
   * whichever process answers.
   */
  accessChanged(userIds: readonly string[]): void {
    for (const userId of userIds) this.replies.forget(userId);
  }

  /**
   * The snapshot reply, envelope included, serialised once for every request of the user within
   * `BOARD_SNAPSHOT_MAX_AGE_MS` (see `SnapshotCache`); `after`: none built before it.
   */
  reply(userId: string, after?: Date): Promise<PrebuiltJson> {
    return this.replies.get(userId, after?.getTime());
  }

  /**
   * The reply's bytes, as `boardResponse` would serialise the snapshot (its schema's key order; the
   * tests check the schema holds and that parsing changes no byte). Serialised tile by tile, in
   * slices that yield (see `SLICE_MS`): a board of 1,000 tiles is 290 kB of JSON.
   */
  private async buildReply(userId: string, at: Date): Promise<PrebuiltJson> {
    const { devices, teams } = await this.snapshot(userId, at);
    const parts: string[] = [
      `{"success":true,"message":${JSON.stringify(BOARD_MESSAGES.fetched)},"data":{"devices":[`,
    ];
    const slice = new Slice();
    for (let i = 0; i < devices.length; i += 1) {
      parts.push(i === 0 ? JSON.stringify(devices[i]) : `,${JSON.stringify(devices[i])}`);
      if (slice.isLong()) await slice.next();
    }
    parts.push(`],"teams":${JSON.stringify(teams)},"at":${JSON.stringify(at.toISOString())}}}`);
    return new PrebuiltJson(Buffer.from(parts.join('')));
  }

  /** The snapshot's data, each object's keys in its schema's order (`boardSnapshot`). */
  async snapshot(userId: string, at: Date = new Date()): Promise<BoardSnapshotWire> {
    const [rows, openAlerts, teams] = await Promise.all([
      repo.listVisibleDevices(this.db, userId),
      this.alerts.open(userId, BOARD_ALERTS_MAX),
      repo.teamsOf(this.db, userId),
    ]);
    const slice = new Slice();
    const seqs = rows.map((r) => r.seq);
    const [latest, sparks] = await Promise.all([
      repo.newestReadings(this.db, seqs),
      this.sparklines.of(this.db, seqs, at, slice),
    ]);
    slice.restart();
    const latestBySeq = new Map(latest.map((l) => [l.device_seq, l]));
    // Already in the schema's order (presentAlert), less what the tile says otherwise.
    const alertsByDevice = new Map<string, BoardAlert[]>();
    for (const { device, deviceName: _name, alertMessage: _message, ...a } of openAlerts) {
      const list = alertsByDevice.get(device);
      if (list) list.push(a);
      else alertsByDevice.set(device, [a]);
    }
    const devices: BoardDeviceWire[] = [];
    for (const r of rows) {
      devices.push(tileOf(r, latestBySeq.get(r.seq), sparks.get(r.seq), alertsByDevice.get(r.id)));
      if (slice.isLong()) await slice.next();
    }
    return { devices, teams: teams.map((t) => ({ _id: t.id, name: t.name })), at: at.toISOString() };
  }
}

/**
 * A tile as sent (`tileWire` of the tile in full), its keys in `boardDevice`'s order: what is at its
 * usual value left out.
 */
function tileOf(
  r: repo.BoardDeviceRow,
  l: repo.LatestRow | undefined,
  sparkline: BoardSparkline | undefined,
  alerts: BoardAlert[] | undefined,
): BoardDeviceWire {
  const tile: BoardDeviceWire = { _id: r.id, deviceName: r.name } as BoardDeviceWire;
  if (!r.is_valid) tile.isValid = false;
  tile.latest = l
    ? {
        spo2: l.spo2,
        heartRate: l.heart_rate,
        temperature: l.temperature,
        battery: l.battery,
        createdAt: new Date(l.recorded_at).toISOString(),
      }
    : null;
  tile.sparkline = sparkline ?? new Array<null>(BOARD_SPARK_BUCKETS).fill(null);
  const limits = limitsOf(r.alarm_settings);
  if (limits) tile.limits = limits;
  if (alerts) tile.alerts = alerts;
  if (r.team_ids.length > 0) tile.teamIds = r.team_ids;
  if (r.unreachable) tile.noWorkingChannel = true;
  return tile;
}
