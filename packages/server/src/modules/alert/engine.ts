import {
  type AlarmSettings,
  type AlertEvent,
  DEVICE_ONLINE_THRESHOLD_MS,
  isDeviceOnline,
  priorityOf,
  type VitalAlarmType,
} from '@vitalwatch/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Tx } from '../../db/index.ts';
import { deviceInactive, unknownApiKey } from '../../errors.ts';
import type { Audience, EventBus } from '../../lib/events.ts';
import { type Publication, publish } from '../../lib/publish.ts';
import { enqueueNotices } from '../../notification-outbox/repository.ts';
import { type ConditionState, judgeLate, sameState, type TimedVitals, walkConditions } from './conditions.ts';
import * as repo from './engine-repository.ts';
import { runDueEscalations } from './escalations.ts';
import { presentLifecycle, presentNewAlert } from './presenter.ts';
import type { LifecycleRow, StoredAlert } from './rows.ts';
import { deviceEventText, offlineAlertText, vitalAlertText } from './rules.ts';

/**
 * A device silent for longer than this when the sweeper first sees it (the server was down, the
 * device was retired) gets no offline alert: "offline" news that old helps no carer.
 */
const OFFLINE_ALERT_HORIZON_MS = 24 * 3600_000;

/** One device's part of a committed ingest batch, as the engine needs it. */
export interface DeviceReadings<R extends TimedVitals> {
  deviceId: string;
  deviceName: string;
  /** Conditions not quietly normal before this batch (read under the device's row lock). */
  conditions: ReadonlyMap<string, ConditionState>;
  alarmSettings: AlarmSettings;
  /** New readings at least as new as the device's previous newest, oldest first. */
  fresh: readonly R[];
  /** New readings older than that (a backlog arriving after newer ones), oldest first. */
  late: readonly R[];
  /** The device's newest `recordedAt` after this batch. */
  lastUpdate: Date | null;
}

/** What a batch changed: new alerts and alerts whose episode ended, to publish after commit. */
export interface Judgement {
  raised: StoredAlert[];
  ended: LifecycleRow[];
}

export interface EngineTimers {
  /** How often DEVICE_OFFLINE is swept for (0: never; tests call `sweepOffline`). */
  offlineSweepMs: number;
  /** How often due escalation steps are run (0: never; tests call `runEscalations`). */
  escalationMs: number;
}

/**
 * The one place alerts are created: vital conditions (delay, hysteresis, critical values), device
 * events (FALL, SOS, …) and DEVICE_OFFLINE; and where high-priority ones are escalated.
 */
export class AlertEngine {
  private timers: NodeJS.Timeout[] = [];
  /** Background runs still going: never two of a kind at once, and `stop` waits for them. */
  private readonly running = new Map<string, Promise<unknown>>();

  private readonly db: Db;
  private readonly events: EventBus;
  private readonly log: FastifyBaseLogger;

  constructor(db: Db, events: EventBus, log: FastifyBaseLogger) {
    this.db = db;
    this.events = events;
    this.log = log;
  }

  /**
   * Inside the ingest transaction, which holds the devices' row locks: move each condition, store
   * the alerts the readings raise, resolve those whose episode ended, schedule escalations.
   */
  async judgeReadings<R extends TimedVitals>(
    tx: Tx,
    batch: readonly DeviceReadings<R>[],
    now: Date,
  ): Promise<Judgement> {
    const changes: repo.ConditionChange[] = [];
    const ended: repo.EpisodeKey[] = [];
    const toInsert: repo.NewAlert[] = [];
    const settingsOf = new Map<string, AlarmSettings>();
    for (const d of batch) {
      settingsOf.set(d.deviceId, d.alarmSettings);
      const walk = walkConditions(d.conditions, d.fresh, d.alarmSettings);
      walk.raises.push(...judgeLate(walk.after, d.late, d.alarmSettings));
      for (const [alertType, state] of walk.after) {
        if (!sameState(d.conditions.get(alertType), state))
          changes.push({ deviceId: d.deviceId, alertType, state });
      }
      for (const alertType of walk.endedBefore) ended.push({ deviceId: d.deviceId, alertType });
      // Any reading that makes the device count as online again ends its offline episode.
      if (d.conditions.has('DEVICE_OFFLINE') && isDeviceOnline(d.lastUpdate, now)) {
        changes.push({ deviceId: d.deviceId, alertType: 'DEVICE_OFFLINE', state: null });
        ended.push({ deviceId: d.deviceId, alertType: 'DEVICE_OFFLINE' });
      }
      for (const raise of walk.raises) {
        toInsert.push({
          deviceId: d.deviceId,
          alertType: raise.type,
          recordedAt: raise.reading.recordedAt,
          priority: raise.priority,
          ...(raise.endedInWalk ? { status: 'resolved' as const, resolvedAt: now } : {}),
          ...vitalAlertText(
            raise.type as VitalAlarmType,
            d.alarmSettings.conditions[raise.type],
            raise.value,
            raise.priority,
            d.deviceName,
          ),
        });
      }
    }
    if (changes.length === 0 && toInsert.length === 0) return { raised: [], ended: [] };
    await repo.saveConditions(tx, changes);
    // Resolve before inserting: the alerts raised now belong to the episodes open after the batch.
    const endedRows = await repo.resolveEpisodeAlerts(tx, ended, now);
    const raised = await repo.insertAlerts(tx, toInsert, (id) => settingsOf.get(id)?.escalation, now);
    return { raised, ended: endedRows };
  }

  /**
   * Device-raised events (FALL, SOS, …) of one device: every new one is an alert, whatever
   * conditions are open (a repeated messageId is stored once). Stored and announced to everyone
   * assigned; resolves to how many were new. Throws `unknownApiKey` for a device that no longer
   * exists and `deviceInactive` for a disabled one (checked under the same transaction).
   */
  async raiseDeviceEvents(deviceId: string, events: AlertEvent[], receivedAt: Date): Promise<number> {
    const { device, stored } = await this.db.transaction(async (tx) => {
      const found = await repo.deviceAudience(tx, deviceId);
      if (!found) throw unknownApiKey();
      if (!found.isValid) throw deviceInactive();
      const alerts = await repo.insertAlerts(
        tx,
        events.map((e) => ({
          deviceId,
          messageId: e.messageId ?? null,
          alertType: e.alertType,
          recordedAt: e.recordedAt ? new Date(e.recordedAt) : receivedAt,
          priority: priorityOf(e.alertType),
          ...deviceEventText(e.alertType, found.deviceName, e),
        })),
        () => found.alarmSettings.escalation,
        receivedAt,
      );
      await enqueueNotices(
        tx,
        alerts.map((a) => ({
          alert: presentNewAlert(a, found.deviceName),
          contactIds: found.contactIds,
          step: 0,
        })),
      );
      return { device: found, stored: alerts };
    });
    this.announce({ ...device, deviceId }, device.deviceName, stored);
    return stored.length;
  }

  /**
   * Queue the push and e-mail of each publication's new alerts to its contacts, in the transaction
   * that stores them: once it commits, they are sent even if this process dies right after.
   */
  async queueNotifications(tx: Tx, publications: readonly Publication[]): Promise<void> {
    await enqueueNotices(
      tx,
      publications.flatMap((p) =>
        p.alerts.map((alert) => ({ alert, contactIds: p.audience.contactIds, step: 0 })),
      ),
    );
  }

  /** Publish an alert's committed new state (acknowledged, resolved) to everyone assigned. */
  async announceChange(changed: LifecycleRow): Promise<void> {
    this.announce(await repo.audienceOf(this.db, changed.deviceId), '', [], [changed]);
  }

  /** Publish committed new alerts, or new states of alerts, to everyone assigned. */
  announce(
    audience: Audience,
    deviceName: string,
    raised: StoredAlert[],
    changed: LifecycleRow[] = [],
  ): void {
    publish(this.events, this.log, [
      {
        audience,
        records: [],
        alerts: raised.map((a) => presentNewAlert(a, deviceName)),
        lifecycle: changed.map(presentLifecycle),
      },
    ]);
  }

  /**
   * Raise DEVICE_OFFLINE once for every active device that was online and has sent nothing for
   * 15 minutes. Safe to run on every server node at once: the episode insert decides.
   */
  async sweepOffline(now: Date = new Date()): Promise<number> {
    const publications: Publication[] = await this.db.transaction(async (tx) => {
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
          priority: priorityOf('DEVICE_OFFLINE'),
          ...offlineAlertText(d.deviceName, d.lastUpdate, now),
        })),
      );
      const made = silent.map((d) => ({
        audience: { deviceId: d.deviceId, userIds: d.userIds, contactIds: d.contactIds },
        records: [],
        alerts: stored.filter((a) => a.deviceId === d.deviceId).map((a) => presentNewAlert(a, d.deviceName)),
      }));
      await this.queueNotifications(tx, made);
      return made;
    });
    publish(this.events, this.log, publications);
    return publications.length;
  }

  /** Send every escalation step due by `now`, each once across all server processes. */
  async runEscalations(now: Date = new Date()): Promise<number> {
    return runDueEscalations(this.db, this.events, this.log, now);
  }

  start(timers: EngineTimers): void {
    if (this.timers.length > 0) return;
    this.every('offline sweep', timers.offlineSweepMs, () => this.sweepOffline());
    this.every('escalation', timers.escalationMs, () => this.runEscalations());
  }

  async stop(): Promise<void> {
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    await Promise.all(this.running.values());
  }

  private every(name: string, intervalMs: number, run: () => Promise<unknown>): void {
    if (intervalMs <= 0) return;
    const timer = setInterval(() => {
      if (this.running.has(name)) return;
      this.running.set(
        name,
        run()
          .catch((err) => this.log.error({ err }, `${name} failed`))
          .finally(() => this.running.delete(name)),
      );
    }, intervalMs);
    timer.unref();
    this.timers.push(timer);
  }
}
