import type { IngestResult } from '@vitalwatch/shared';
import type { Db } from '../../db/index.ts';
import { deviceInactive, unknownApiKey } from '../../errors.ts';
import { groupBy } from '../../lib/group-by.ts';
import type { Publication } from '../../lib/publish.ts';
import { type AlertEngine, presentLifecycle, presentNewAlert } from '../alert/service.ts';
import { presentHealthRecord } from './presenter.ts';
import {
  insertReadings,
  type LockedDevice,
  lockDevices,
  type ReadingRow,
  type StoredReading,
} from './store-repository.ts';

/** One caller's readings, all of one device. */
export interface HealthBatchItem {
  deviceId: string;
  rows: ReadingRow[];
}

export interface StoredBatch {
  outcomes: (IngestResult | Error)[];
  publications: Publication[];
}

const byTime = (a: StoredReading, b: StoredReading) =>
  a.recordedAt.getTime() - b.recordedAt.getTime() || Number(BigInt(a.id) - BigInt(b.id));

/**
 * Store a group of callers' readings in one transaction: lock the devices, one multi-row insert
 * (which also advances `last_update`), then the alert engine. A repeated messageId, across
 * callers or earlier batches, counts as a duplicate for the caller that sent it.
 */
export async function storeHealthBatch(
  db: Db,
  engine: AlertEngine,
  items: HealthBatchItem[],
  now: Date,
): Promise<StoredBatch> {
  const deviceIds = [...new Set(items.map((i) => i.deviceId))].sort();
  return db.transaction(async (tx) => {
    const rowsLocked = await lockDevices(tx, deviceIds);
    // Only devices that still exist and are active store anything: under the row lock this is
    // the final word, whatever a credential cache (this node's or another's) said a moment ago.
    const locked = new Map(rowsLocked.filter((d) => d.isValid).map((d) => [d.id, d]));
    const inactive = new Set(rowsLocked.filter((d) => !d.isValid).map((d) => d.id));
    const seen = new Set<string>();
    const rows: ReadingRow[] = [];
    for (const item of items) {
      if (!locked.has(item.deviceId)) continue;
      for (const row of item.rows) {
        if (row.messageId !== null) {
          const key = `${row.deviceId}\u0000${row.messageId}`;
          if (seen.has(key)) continue;
          seen.add(key);
        }
        rows.push(row);
      }
    }
    const stored = await insertReadings(tx, rows, locked);

    const storedKeys = new Set(stored.map((r) => `${r.deviceId}\u0000${r.messageId}`));
    const claimed = new Set<string>();
    const outcomes = items.map((item): IngestResult | Error => {
      // The device was disabled or deleted between authentication and this batch.
      if (inactive.has(item.deviceId)) return deviceInactive();
      if (!locked.has(item.deviceId)) return unknownApiKey();
      let accepted = 0;
      for (const row of item.rows) {
        if (row.messageId === null) {
          accepted++;
          continue;
        }
        const key = `${row.deviceId}\u0000${row.messageId}`;
        if (storedKeys.has(key) && !claimed.has(key)) {
          claimed.add(key);
          accepted++;
        }
      }
      return { accepted, duplicates: item.rows.length - accepted };
    });

    const perDevice = groupByDevice(stored);
    const judged = [...perDevice].map(([deviceId, readings]) => {
      const device = locked.get(deviceId)!;
      return { device, readings, ...freshReadings(device, readings, now) };
    });
    const { raised, ended } = await engine.judgeReadings(
      tx,
      judged.map(({ device, fresh, late, lastUpdate }) => ({
        deviceId: device.id,
        deviceName: device.deviceName,
        conditions: device.conditions,
        alarmSettings: device.alarmSettings,
        fresh,
        late,
        lastUpdate,
      })),
      now,
    );
    const publications = judged.map(({ device, readings }) => ({
      audience: { deviceId: device.id, userIds: device.userIds, contactIds: device.contactIds },
      records: readings.map(presentHealthRecord),
      alerts: raised
        .filter((a) => a.deviceId === device.id)
        .map((a) => presentNewAlert(a, device.deviceName)),
      lifecycle: ended.filter((a) => a.deviceId === device.id).map(presentLifecycle),
    }));
    await engine.queueNotifications(tx, publications);
    return { outcomes, publications };
  });
}

function groupByDevice(stored: StoredReading[]): Map<string, StoredReading[]> {
  const map = groupBy(stored, (r) => r.deviceId);
  for (const list of map.values()) list.sort(byTime);
  return map;
}

/**
 * Only readings at least as new as the device's newest before this batch move its conditions:
 * a late, older reading is stored and shown but must not reopen or close an episode that newer
 * readings already decided (a critical one still raises: `judgeLate`).
 */
function freshReadings(device: LockedDevice, oldestFirst: StoredReading[], now: Date) {
  const previous = device.lastUpdate?.getTime() ?? Number.NEGATIVE_INFINITY;
  // A reading stamped in the future (a clock ahead, within the 5-minute tolerance) must not make
  // the device's real readings look late until real time catches up with it.
  const cutoff = Math.min(previous, now.getTime());
  const fresh = oldestFirst.filter((r) => r.recordedAt.getTime() >= cutoff);
  const late = oldestFirst.filter((r) => r.recordedAt.getTime() < cutoff);
  const newest = oldestFirst.at(-1)?.recordedAt.getTime() ?? previous;
  const lastUpdate = Math.max(previous, newest);
  return { fresh, late, lastUpdate: Number.isFinite(lastUpdate) ? new Date(lastUpdate) : null };
}
