import {
  BOARD_ALERTS_MAX,
  BOARD_SPARK_BUCKETS,
  type BoardAlert,
  type BoardDevice,
  type BoardLimits,
  type BoardSnapshot,
  DEFAULT_ALARM_SETTINGS,
  effectiveAlarmSettings,
  VITAL_ALARM_TYPES,
} from '@vitalwatch/shared';
import type { Db } from '../../db/index.ts';
import type { AlertService } from '../alert/service.ts';
import * as repo from './repository.ts';

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
 * in five queries whatever their number.
 */
export class BoardService {
  private readonly db: Db;
  private readonly alerts: AlertService;

  constructor(db: Db, alerts: AlertService) {
    this.db = db;
    this.alerts = alerts;
  }

  async snapshot(userId: string, at: Date = new Date()): Promise<BoardSnapshot> {
    const [rows, openAlerts, teams] = await Promise.all([
      repo.listVisibleDevices(this.db, userId),
      this.alerts.open(userId, BOARD_ALERTS_MAX),
      repo.teamsOf(this.db, userId),
    ]);
    const seqs = rows.map((r) => r.seq);
    const [latest, slots] = await Promise.all([
      repo.newestReadings(this.db, seqs),
      repo.lastHourSlots(this.db, seqs, at),
    ]);
    const latestBySeq = new Map(latest.map((l) => [l.device_seq, l]));
    const sparkBySeq = new Map<number, BoardDevice['sparkline']>();
    for (const s of slots) {
      if (s.slot < 0 || s.slot >= BOARD_SPARK_BUCKETS || s.heart_rate === null) continue;
      let spark = sparkBySeq.get(s.device_seq);
      if (!spark) {
        spark = new Array(BOARD_SPARK_BUCKETS).fill(null);
        sparkBySeq.set(s.device_seq, spark);
      }
      spark[s.slot] = Math.round(s.heart_rate);
    }
    const alertsByDevice = new Map<string, BoardAlert[]>();
    for (const { device, deviceName: _name, alertMessage: _message, ...a } of openAlerts) {
      const list = alertsByDevice.get(device);
      if (list) list.push(a);
      else alertsByDevice.set(device, [a]);
    }
    return {
      at: at.toISOString(),
      teams: teams.map((t) => ({ _id: t.id, name: t.name })),
      devices: rows.map((r): BoardDevice => {
        const l = latestBySeq.get(r.seq);
        return {
          _id: r.id,
          deviceName: r.name,
          isValid: r.is_valid,
          latest: l
            ? {
                _id: String(l.id),
                spo2: l.spo2,
                heartRate: l.heart_rate,
                temperature: l.temperature,
                battery: l.battery,
                createdAt: l.recorded_at.toISOString(),
              }
            : null,
          sparkline: sparkBySeq.get(r.seq) ?? new Array<null>(BOARD_SPARK_BUCKETS).fill(null),
          limits: limitsOf(r.alarm_settings),
          alerts: alertsByDevice.get(r.id) ?? [],
          teamIds: r.team_ids,
          ...(r.unreachable ? { noWorkingChannel: true as const } : {}),
        };
      }),
    };
  }
}
