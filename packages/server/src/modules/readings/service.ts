import {
  HEALTH_FETCH_DEFAULT_LIMIT,
  HEALTH_MESSAGES,
  type HealthFetchBody,
  type HealthHistory,
  type HealthHistoryBody,
  type HealthRecord,
  type HistorySummary,
  type IngestResult,
} from '@vitalwatch/shared';
import type { FastifyBaseLogger } from 'fastify';
import { canSeeDevice, visibleHistoryVersion } from '../../access/devices.ts';
import type { Db } from '../../db/index.ts';
import { isMissingPartition, type TimePartitions } from '../../db/partitions.ts';
import { notFound } from '../../errors.ts';
import type { EventBus } from '../../lib/events.ts';
import { publish } from '../../lib/publish.ts';
import type { AlertEngine } from '../alert/service.ts';
import { deviceHistory, rangeSummary } from './history.ts';
import { HistoryBucketCache } from './history-cache.ts';
import { presentHealthRecord } from './presenter.ts';
import { listReadings, newestVisible } from './repository.ts';
import { type HealthBatchItem, storeHealthBatch } from './store.ts';

// What other modules use of readings: only through this file.
export { ROLLUP_VITALS } from './rollups.ts';
export type { HealthBatchItem } from './store.ts';

export interface ReadingsDeps {
  db: Db;
  engine: AlertEngine;
  partitions: TimePartitions;
  events: EventBus;
  log: FastifyBaseLogger;
}

/** Readings: stored (with their rollups, judged by the alert engine) and read back for the dashboard. */
export class ReadingsService {
  private readonly db: Db;

  private readonly deps: ReadingsDeps;

  /** The finished buckets of the charts asked of this process (see `HistoryBucketCache`). */
  private readonly historyCache = new HistoryBucketCache();

  constructor(deps: ReadingsDeps) {
    this.deps = deps;
    this.db = deps.db;
  }

  /**
   * Store a group of callers' readings in one transaction (see `storeHealthBatch`), making the
   * time partition first when a reading falls outside every one, then publish what was committed.
   * Resolves to each caller's outcome, in order.
   */
  async store(items: HealthBatchItem[], now: Date): Promise<(IngestResult | Error)[]> {
    const { db, engine, partitions, events, log } = this.deps;
    const store = () => storeHealthBatch(db, engine, items, now);
    const { outcomes, publications } = await store().catch(async (err: unknown) => {
      if (!isMissingPartition(err)) throw err;
      // A time no partition covers yet (the maintenance timer makes them weeks ahead): make its and try again.
      let from = Number.POSITIVE_INFINITY;
      let to = Number.NEGATIVE_INFINITY;
      for (const item of items)
        for (const row of item.rows) {
          from = Math.min(from, row.recordedAt.getTime());
          to = Math.max(to, row.recordedAt.getTime());
        }
      await partitions.ensure(new Date(from), new Date(to));
      return store();
    });
    publish(events, log, publications);
    return outcomes;
  }

  /**
   * Readings of a device assigned to the caller, newest first. Any other device (someone
   * else's, unknown, or any device for an admin, who is never assigned one) is 404.
   */
  async fetch(userId: string, deviceId: string, body: HealthFetchBody): Promise<HealthRecord[]> {
    const limit = body?.limit ?? HEALTH_FETCH_DEFAULT_LIMIT;
    if (!body?.from && !body?.to) {
      const newest = await newestVisible(this.db, userId, deviceId, limit);
      if (!newest) throw notFound(HEALTH_MESSAGES.notFound);
      return newest.map(presentHealthRecord);
    }
    if (!(await canSeeDevice(this.db, userId, deviceId))) throw notFound(HEALTH_MESSAGES.notFound);
    const rows = await listReadings(this.db, deviceId, {
      from: body?.from ? new Date(body.from) : undefined,
      to: body?.to ? new Date(body.to) : undefined,
      limit,
    });
    return rows.map(presentHealthRecord);
  }

  /** The device's history over a range within a point budget (see `deviceHistory`); 404 as `fetch`. */
  async history(userId: string, deviceId: string, body: HealthHistoryBody): Promise<HealthHistory> {
    const at = await visibleHistoryVersion(this.db, userId, deviceId);
    if (!at) throw notFound(HEALTH_MESSAGES.notFound);
    return deviceHistory(this.db, deviceId, new Date(body.from), new Date(body.to), body.points, {
      cache: this.historyCache,
      at,
    });
  }

  /**
   * The device's newest reading, or null. No access check: for a share link, whose being live is
   * the access (the services of signed-in callers ask `fetch`).
   */
  async newest(deviceId: string): Promise<HealthRecord | null> {
    const [row] = await listReadings(this.db, deviceId, { limit: 1 });
    return row ? presentHealthRecord(row) : null;
  }

  /** The summary of the device's readings in [from, to] (see `rangeSummary`); no access check, as `newest`. */
  summary(deviceId: string, from: Date, to: Date): Promise<HistorySummary> {
    return rangeSummary(this.db, deviceId, from, to);
  }
}
