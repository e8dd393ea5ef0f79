import {
  BOARD_ALERTS_MAX,
  BOARD_MESSAGES,
  BOARD_SNAPSHOT_MAX_AGE_MS,
  BOARD_SPARK_BUCKETS,
  type BoardAlert,
  type BoardDevice,
  type BoardLimits,
  type BoardSnapshotWire,
  boardResponse,
  DEFAULT_ALARM_SETTINGS,
  effectiveAlarmSettings,
  tileWire,
  VITAL_ALARM_TYPES,
} from '@vitalwatch/shared';
import type { Db } from '../../db/index.ts';
import { PrebuiltJson } from '../../http/prebuilt-json.ts';
import type { EventBus } from '../../lib/events.ts';
import type { AlertService } from '../alert/service.ts';
import * as repo from './repository.ts';
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

  /** Validated against the response schema once per build, as the serializer does each reply. */
  private async buildReply(userId: string, at: Date): Promise<PrebuiltJson> {
    const data = await this.snapshot(userId, at);
    const reply = boardResponse.parse({ success: true, message: BOARD_MESSAGES.fetched, data });
    return new PrebuiltJson(Buffer.from(JSON.stringify(reply)));
  }

  async snapshot(userId: string, at: Date = new Date()): Promise<BoardSnapshotWire> {
    const [rows, openAlerts, teams] = await Promise.all([
      repo.listVisibleDevices(this.db, userId),
      this.alerts.open(userId, BOARD_ALERTS_MAX),
      repo.teamsOf(this.db, userId),
    ]);
    const seqs = rows.map((r) => r.seq);
    const [latest, sparks] = await Promise.all([
      repo.newestReadings(this.db, seqs),
      this.sparklines.of(this.db, seqs, at),
    ]);
    const latestBySeq = new Map(latest.map((l) => [l.device_seq, l]));
    const alertsByDevice = new Map<string, BoardAlert[]>();
    for (const { device, deviceName: _name, alertMessage: _message, ...a } of openAlerts) {
      const list = alertsByDevice.get(device);
      if (list) list.push(a);
      else alertsByDevice.set(device, [a]);
    }
    return {
      at: at.toISOString(),
      teams: teams.map((t) => ({ _id: t.id, name: t.name })),
      devices: rows.map((r) => {
        const l = latestBySeq.get(r.seq);
        const tile: BoardDevice = {
          _id: r.id,
          deviceName: r.name,
          isValid: r.is_valid,
          latest: l
            ? {
                spo2: l.spo2,
                heartRate: l.heart_rate,
                temperature: l.temperature,
                battery: l.battery,
                createdAt: l.recorded_at.toISOString(),
              }
            : null,
          sparkline: sparks.get(r.seq) ?? new Array<null>(BOARD_SPARK_BUCKETS).fill(null),
          limits: limitsOf(r.alarm_settings),
          alerts: alertsByDevice.get(r.id) ?? [],
          teamIds: r.team_ids,
          ...(r.unreachable ? { noWorkingChannel: true as const } : {}),
        };
        return tileWire(tile);
      }),
    };
  }
}
