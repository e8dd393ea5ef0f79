/**
 * Device ingestion, one service for HTTP and MQTT: `ctx.ingest` (an IngestService).
 *
 *   authenticateApiKey(apiKey: string | undefined): Promise<DeviceRow>
 *     HTTP `X-Api-Key`. Throws AppError 401 (missing/unknown key) or 403 (device inactive).
 *   authenticateDevice(deviceId: string, apiAuthCode: string): Promise<DeviceRow>
 *     MQTT username + password. 401 unknown code or another device's code; 403 inactive.
 *   ingestHealth(device: { id: string }, readings: HealthReading[]): Promise<IngestResult>
 *   ingestAlerts(device: { id: string }, events: AlertEvent[]): Promise<IngestResult>
 *     Items already parsed with the shared `healthReading` / `alertEvent` schemas (or the
 *     `healthIngestBody` / `alertIngestBody` of one HTTP body or MQTT payload). Resolve only after
 *     the rows are committed, with `{ accepted, duplicates }` (a repeated messageId of the device is
 *     a duplicate, stored once). Readings are group-committed with other callers' readings.
 *
 * After each commit, on `ctx.events` (an EventBus, lib/events.ts):
 *   'health' (audience: { deviceId, userIds }, records: HealthRecord[])  new readings of one
 *     device, oldest recordedAt first, `createdAt` = recordedAt;
 *   'alerts' (audience, alerts: AlertRecord[])  new alerts of one device, `isRead` false.
 * `userIds` are the users assigned to the device at commit time. Listeners must not throw or block.
 *
 *   forgetDevice(deviceId): drop cached credentials (the device module calls it on admin changes).
 *   drain(): wait for queued readings to commit (app close does it before the database closes).
 *
 * Credentials are cached for at most a second (validity changes and new API codes take effect
 * within that on every node; at once on the node where the admin made the change).
 * Alerts raised from readings (and DEVICE_OFFLINE, by `ctx.alertEngine.sweepOffline(now)`, on a
 * timer) reach 'alerts' the same way; alerts their episode resolved reach 'alertLifecycle'.
 */
import {
  type AlertEvent,
  DEVICE_MESSAGES,
  HEALTH_MESSAGES,
  type HealthReading,
  INGEST_BATCH_MAX,
  type IngestResult,
  SERVER_MESSAGES,
} from '@vitalwatch/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/index.ts';
import { isMissingPartition, type TimePartitions } from '../../db/partitions.ts';
import { badRequest, forbidden, serviceUnavailable, tooManyRequests, unauthorized } from '../../errors.ts';
import type { EventBus } from '../../lib/events.ts';
import { GroupCommitter, QueueFull, type WhenFull } from '../../lib/group-commit.ts';
import { publish } from '../../lib/publish.ts';
import type { AlertEngine } from '../alert/engine.ts';
import { type DeviceRow, findDeviceByApiAuthCode } from '../device/repository.ts';
import { type HealthBatchItem, storeHealthBatch } from '../readings/store.ts';
import { deviceAudience } from '../readings/store-repository.ts';

const CREDENTIAL_TTL_MS = 1000;
const CREDENTIAL_CACHE_MAX = 10_000;
/**
 * API codes are 43 base64url characters. Anything else is no key and costs no database lookup
 * (a NUL, for one, would fail the query instead of matching nothing).
 */
const API_KEY_SHAPE = /^[A-Za-z0-9_-]{1,128}$/;

export interface IngestOptions {
  /** Most readings in one group commit. */
  maxBatchRows?: number;
  /**
   * Group commits in flight at once, each for its own share of the devices (a lane): two commits
   * never wait for each other's device locks, and a device's readings queued together are
   * stored together.
   */
  concurrency?: number;
  /** Readings that may wait for a group commit (default INGEST_QUEUE_BATCHES batches). */
  maxQueuedRows?: number;
  /** How long an MQTT publish waits for room in a full queue (default ROOM_WAIT_MS). */
  roomWaitMs?: number;
}

/**
 * The ingest queue holds at most this many full batches (20,000 readings: about a second at the
 * PostgreSQL target rate) besides those being written. Past it the server sheds load instead of
 * letting memory and latency grow: HTTP callers get 429, MQTT publishes wait for their PUBACK.
 */
const INGEST_QUEUE_BATCHES = 4;
/** An MQTT publish waits this long for room, then its connection closes without a PUBACK and the device resends. */
const ROOM_WAIT_MS = 10_000;

export class IngestService {
  private readonly credentials = new Map<string, { device: DeviceRow; at: number }>();
  /** Credential lookups under way, by API code. */
  private readonly lookups = new Map<string, Promise<DeviceRow | undefined>>();
  /** Moves on every admin change of a device, so a lookup begun before it is not cached. */
  private generation = 0;
  /** One group committer per lane; a device always uses the same lane. */
  private readonly lanes: GroupCommitter<HealthBatchItem, IngestResult>[];
  /** Readings refused because the queue was full, since start. */
  shed = 0;
  /** Told the size and duration of every group commit (for /metrics). */
  private readonly commitObservers: ((rows: number, seconds: number) => void)[] = [];
  private lastShedLog = 0;

  constructor(
    private readonly db: Db,
    private readonly engine: AlertEngine,
    private readonly partitions: TimePartitions,
    private readonly events: EventBus,
    private readonly log: FastifyBaseLogger,
    options: IngestOptions = {},
  ) {
    const maxRows = options.maxBatchRows ?? 10 * INGEST_BATCH_MAX;
    const laneCount = options.concurrency ?? 1;
    const maxQueuedRows = options.maxQueuedRows ?? INGEST_QUEUE_BATCHES * maxRows;
    this.lanes = Array.from(
      { length: laneCount },
      () =>
        new GroupCommitter<HealthBatchItem, IngestResult>((items) => this.commitHealth(items), {
          maxRows,
          concurrency: 1,
          maxQueuedRows: Math.ceil(maxQueuedRows / laneCount),
          roomWaitMs: options.roomWaitMs ?? ROOM_WAIT_MS,
        }),
    );
  }

  /** Readings waiting for a group commit, in all lanes. */
  get queuedRows(): number {
    return this.lanes.reduce((sum, lane) => sum + lane.depth, 0);
  }

  private laneOf(deviceId: string): GroupCommitter<HealthBatchItem, IngestResult> {
    // Device ids are random UUIDs: their first 32 bits spread devices evenly.
    return this.lanes[Number.parseInt(deviceId.slice(0, 8), 16) % this.lanes.length] ?? this.lanes[0]!;
  }

  async authenticateApiKey(apiKey: string | undefined): Promise<DeviceRow> {
    if (!apiKey) throw unauthorized(DEVICE_MESSAGES.missingApiKey);
    const device = await this.lookup(apiKey);
    if (!device) throw unauthorized(DEVICE_MESSAGES.unknownApiKey);
    if (!device.isValid) throw forbidden(DEVICE_MESSAGES.inactive);
    return device;
  }

  async authenticateDevice(deviceId: string, apiAuthCode: string): Promise<DeviceRow> {
    const device = apiAuthCode ? await this.lookup(apiAuthCode) : undefined;
    // Another device's code is a wrong password for this device id (MQTT: bad username or password).
    if (!device || device.id !== deviceId) throw unauthorized(DEVICE_MESSAGES.unknownApiKey);
    if (!device.isValid) throw forbidden(DEVICE_MESSAGES.inactive);
    return device;
  }

  /** Drop cached credentials of a device (its validity or codes changed, or it was deleted). */
  forgetDevice(deviceId: string): void {
    this.generation++;
    this.lookups.clear();
    for (const [key, entry] of this.credentials) {
      if (entry.device.id === deviceId) this.credentials.delete(key);
    }
  }

  /**
   * `whenFull` decides what a caller meets when the queue already holds its limit: `'refuse'`
   * (HTTP) a 429 with Retry-After at once; `'wait'` (MQTT) waiting for room, so the PUBACK comes
   * later and the device, its in-flight window full, slows down; after ROOM_WAIT_MS a 503.
   */
  async ingestHealth(
    device: { id: string },
    readings: HealthReading[],
    whenFull: WhenFull = 'refuse',
  ): Promise<IngestResult> {
    if (readings.length === 0) return { accepted: 0, duplicates: 0 };
    const receivedAt = new Date();
    this.refuseExpired(readings, receivedAt);
    const rows = readings.map((r) => ({
      deviceId: device.id,
      messageId: r.messageId ?? null,
      recordedAt: r.recordedAt ? new Date(r.recordedAt) : receivedAt,
      stampedOnArrival: !r.recordedAt,
      spo2: r.spo2 ?? null,
      heartRate: r.heartRate ?? null,
      temperature: r.temperature ?? null,
      battery: r.battery ?? null,
    }));
    const lane = this.laneOf(device.id);
    return lane.submit({ deviceId: device.id, rows }, rows.length, whenFull).catch((err: unknown) => {
      if (!(err instanceof QueueFull)) throw err;
      this.shed += rows.length;
      if (Date.now() - this.lastShedLog > 10_000) {
        this.lastShedLog = Date.now();
        this.log.warn({ queued: this.queuedRows, shed: this.shed }, 'ingest queue full: shedding load');
      }
      throw err.waited
        ? serviceUnavailable(SERVER_MESSAGES.ingestBusy, 1)
        : tooManyRequests(SERVER_MESSAGES.ingestBusy, 1);
    });
  }

  /** Device-raised events (FALL, SOS, …): the alert engine makes each new one an alert. */
  async ingestAlerts(device: { id: string }, events: AlertEvent[]): Promise<IngestResult> {
    if (events.length === 0) return { accepted: 0, duplicates: 0 };
    const receivedAt = new Date();
    const { target, stored } = await this.db.transaction(async (tx) => {
      const found = await deviceAudience(tx, device.id);
      if (!found) throw unauthorized(DEVICE_MESSAGES.unknownApiKey);
      if (!found.isValid) throw forbidden(DEVICE_MESSAGES.inactive);
      const source = { ...found, deviceId: device.id };
      return { target: source, stored: await this.engine.raiseDeviceEvents(tx, source, events, receivedAt) };
    });
    this.engine.announce(target, target.deviceName, stored);
    return { accepted: stored.length, duplicates: events.length - stored.length };
  }

  /** Wait for queued readings to be written (call before closing the database). */
  async drain(): Promise<void> {
    await Promise.all(this.lanes.map((lane) => lane.drain()));
  }

  /**
   * A reading from before the raw retention would be dropped with its partition within the week
   * (and would make a partition for nothing): refused, with a message that says why.
   */
  private refuseExpired(readings: HealthReading[], now: Date): void {
    const days = this.partitions.retention.raw;
    const cutoff = this.partitions.cutoff('raw', now).getTime();
    const issues = readings.flatMap((r, i) =>
      r.recordedAt && Date.parse(r.recordedAt) < cutoff
        ? [
            {
              path: readings.length > 1 ? `${i}.recordedAt` : 'recordedAt',
              message: HEALTH_MESSAGES.beforeRetention(days),
            },
          ]
        : [],
    );
    if (issues.length > 0) throw badRequest(issues[0]!.message, issues);
  }

  /** Call `observer` with the rows and seconds of each group commit that succeeds. */
  observeCommits(observer: (rows: number, seconds: number) => void): void {
    this.commitObservers.push(observer);
  }

  private async commitHealth(items: HealthBatchItem[]): Promise<(IngestResult | Error)[]> {
    const now = new Date();
    const started = performance.now();
    const store = () => storeHealthBatch(this.db, this.engine, items, now);
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
      await this.partitions.ensure(new Date(from), new Date(to));
      return store();
    });
    publish(this.events, this.log, publications);
    const rows = items.reduce((sum, item) => sum + item.rows.length, 0);
    for (const observe of this.commitObservers) observe(rows, (performance.now() - started) / 1000);
    return outcomes;
  }

  private lookup(apiKey: string): Promise<DeviceRow | undefined> {
    if (!API_KEY_SHAPE.test(apiKey)) return Promise.resolve(undefined);
    const now = Date.now();
    const cached = this.credentials.get(apiKey);
    if (cached && now - cached.at < CREDENTIAL_TTL_MS) return Promise.resolve(cached.device);
    // One query per key at a time: a device with several publishes in flight when its entry
    // expires would otherwise look itself up once for each (measured: 3.8 lookups per device a second).
    const pending = this.lookups.get(apiKey);
    if (pending) return pending;
    const generation = this.generation;
    const lookup = findDeviceByApiAuthCode(this.db, apiKey)
      .then((device) => {
        // An admin change while the query ran: do not keep what it read before the change.
        if (generation === this.generation) this.remember(apiKey, device, now);
        return device;
      })
      .finally(() => {
        if (this.lookups.get(apiKey) === lookup) this.lookups.delete(apiKey);
      });
    this.lookups.set(apiKey, lookup);
    return lookup;
  }

  private remember(apiKey: string, device: DeviceRow | undefined, at: number): void {
    this.credentials.delete(apiKey);
    if (!device) return;
    if (this.credentials.size >= CREDENTIAL_CACHE_MAX) {
      const oldest = this.credentials.keys().next().value;
      if (oldest !== undefined) this.credentials.delete(oldest);
    }
    this.credentials.set(apiKey, { device, at });
  }
}
