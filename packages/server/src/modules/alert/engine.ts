import { DEVICE_ONLINE_THRESHOLD_MS, isDeviceOnline } from '@vitalwatch/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Tx } from '../../db/index.ts';
import type { EventBus } from '../../lib/events.ts';
import { type TimedVitals, walkEpisodes } from './episodes.ts';
import { presentNewAlert } from './presenter.ts';
import { publish } from './publish.ts';
import * as repo from './repository.ts';
import { offlineAlertText, vitalAlertText } from './rules.ts';

/**
 * A device silent for longer than this when the sweeper first sees it (the server was down, the
 * device was retired) gets no offline alert: "offline" news that old helps no carer.
 */
const OFFLINE_ALERT_HORIZON_MS = 24 * 3600_000;

/** One device's part of a committed ingest batch, as the engine needs it. */
export interface DeviceReadings<R extends TimedVitals> {
  deviceId: string;
  deviceName: string;
  /** Episode types open before this batch (read under the device's row lock). */
  openEpisodes: readonly string[];
  /** New readings at least as new as the device's previous newest, oldest first. */
  fresh: readonly R[];
  /** The device's newest `recordedAt` after this batch. */
  lastUpdate: Date | null;
}

export class AlertEngine {
  private timer: NodeJS.Timeout | undefined;
  /** The sweep the timer started, if still running: never two at once, and `stop` waits for it. */
  private sweeping: Promise<unknown> | undefined;

  constructor(
    private readonly db: Db,
    private readonly events: EventBus,
    private readonly log: FastifyBaseLogger,
  ) {}

  /**
   * Inside the ingest transaction, which holds the devices' row locks: move the episodes and
   * store the alerts the readings raise. Returns them for publishing after commit.
   */
  async judgeReadings<R extends TimedVitals>(
    tx: Tx,
    batch: readonly DeviceReadings<R>[],
    now: Date,
  ): Promise<repo.StoredAlert[]> {
    const toOpen: repo.EpisodeKey[] = [];
    const toClose: repo.EpisodeKey[] = [];
    const candidates: { key: repo.EpisodeKey; opensEpisode: boolean; alert: repo.NewAlert }[] = [];
    for (const d of batch) {
      const open = new Set(d.openEpisodes);
      const walk = walkEpisodes(open, d.fresh);
      for (const alertType of walk.open) toOpen.push({ deviceId: d.deviceId, alertType });
      for (const alertType of walk.close) toClose.push({ deviceId: d.deviceId, alertType });
      // Any reading that makes the device count as online again ends its offline episode.
      if (open.has('DEVICE_OFFLINE') && isDeviceOnline(d.lastUpdate, now)) {
        toClose.push({ deviceId: d.deviceId, alertType: 'DEVICE_OFFLINE' });
      }
      for (const raise of walk.raises) {
        candidates.push({
          key: { deviceId: d.deviceId, alertType: raise.rule.type },
          opensEpisode: raise.opensEpisode,
          alert: {
            deviceId: d.deviceId,
            alertType: raise.rule.type,
            recordedAt: raise.reading.recordedAt,
            ...vitalAlertText(raise.rule, raise.value, d.deviceName),
          },
        });
      }
    }
    if (candidates.length === 0 && toClose.length === 0) return [];
    await repo.closeEpisodes(tx, toClose);
    const opened = new Set(
      (await repo.openEpisodes(tx, toOpen, now)).map((k) => `${k.deviceId}/${k.alertType}`),
    );
    const raised = candidates.filter(
      (c) => !c.opensEpisode || opened.has(`${c.key.deviceId}/${c.key.alertType}`),
    );
    return repo.insertAlerts(
      tx,
      raised.map((c) => c.alert),
    );
  }

  /**
   * Raise DEVICE_OFFLINE once for every active device that was online and has sent nothing for
   * 15 minutes. Safe to run on every server node at once: the episode insert decides.
   */
  async sweepOffline(now: Date = new Date()): Promise<number> {
    const publications = await this.db.transaction(async (tx) => {
      const silent = await repo.openOfflineEpisodes(
        tx,
        new Date(now.getTime() - DEVICE_ONLINE_THRESHOLD_MS),
        new Date(now.getTime() - OFFLINE_ALERT_HORIZON_MS),
        now,
      );
      const stored = await repo.insertAlerts(
        tx,
        silent.map((d) => ({
          deviceId: d.deviceId,
          alertType: 'DEVICE_OFFLINE',
          recordedAt: now,
          ...offlineAlertText(d.deviceName, d.lastUpdate, now),
        })),
      );
      return silent.map((d) => ({
        audience: { deviceId: d.deviceId, userIds: d.userIds },
        records: [],
        alerts: stored.filter((a) => a.deviceId === d.deviceId).map((a) => presentNewAlert(a, d.deviceName)),
      }));
    });
    publish(this.events, this.log, publications);
    return publications.length;
  }

  /** Sweep every `intervalMs` (0: never; tests call `sweepOffline` themselves). */
  start(intervalMs: number): void {
    if (intervalMs <= 0 || this.timer) return;
    this.timer = setInterval(() => {
      if (this.sweeping) return;
      this.sweeping = this.sweepOffline()
        .catch((err) => this.log.error({ err }, 'offline sweep failed'))
        .finally(() => {
          this.sweeping = undefined;
        });
    }, intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.sweeping;
  }
}
