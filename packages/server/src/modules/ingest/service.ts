/**
 * Device ingestion, one service for HTTP and MQTT: `ctx.ingest` (an IngestService).
 *
 *   authenticateApiKey(apiKey: string | undefined): Promise<DeviceRow>
 *     HTTP `X-Api-Key`: a device's API code or a browser gateway's key (modules/gateway). Throws DomainError `missingApiKey`, `unknownApiKey` or `deviceInactive`.
 *   authenticateDevice(deviceId: string, apiAuthCode: string): Promise<DeviceRow>
 *     MQTT username + password. `unknownApiKey` (also another device's code), `deviceInactive`.
 *   findActiveDevice(deviceId: string): Promise<DeviceRow>
 *     The device of an external broker's topic. `deviceNotFound`, `deviceInactive`.
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
 *   drain(): wait for queued readings to commit (app close does it before the database closes).
 *
 * Credentials come from the device module's one cache (DeviceCredentials: at most a second old,
 * forgotten at once on the node where an admin changes the device). Readings are stored by the
 * readings module, device events raised by the alert engine; alerts raised from readings (and
 * DEVICE_OFFLINE, by `ctx.alertEngine.sweepOffline(now)`, on a timer) reach 'alerts' the same way;
 * alerts their episode resolved reach 'alertLifecycle'.
 */
import {
  type AlertEvent,
  HEALTH_MESSAGES,
  type HealthReading,
  INGEST_BATCH_MAX,
  type IngestResult,
  SERVER_MESSAGES,
} from '@vitalwatch/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { TimePartitions } from '../../db/partitions.ts';
import {
  badRequest,
  DomainError,
  deviceInactive,
  deviceNotFound,
  missingApiKey,
  unknownApiKey,
} from '../../errors.ts';
import { GroupCommitter, QueueFull, type WhenFull } from '../../lib/group-commit.ts';
import type { AlertEngine } from '../alert/service.ts';
import type { DeviceCredentials, DeviceRow } from '../device/service.ts';
import type { GatewayService } from '../gateway/service.ts';
import type { HealthBatchItem, ReadingsService } from '../readings/service.ts';

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

export interface IngestDeps {
  credentials: DeviceCredentials;
  /** Browser gateways' keys, which ingest for one device like its API code. */
  gateways: Pick<GatewayService, 'isGatewayKey' | 'deviceOfKey'>;
  readings: ReadingsService;
  engine: AlertEngine;
  partitions: TimePartitions;
  log: FastifyBaseLogger;
}

export class IngestService {
  /** One group committer per lane; a device always uses the same lane. */
  private readonly lanes: GroupCommitter<HealthBatchItem, IngestResult>[];
  /** Readings refused because the queue was full, since start. */
  shed = 0;
  /** Told the size and duration of every group commit (for /metrics). */
  private readonly commitObservers: ((rows: number, seconds: number) => void)[] = [];
  private lastShedLog = 0;

  private readonly deps: IngestDeps;

  constructor(deps: IngestDeps, options: IngestOptions = {}) {
    this.deps = deps;
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
    if (!apiKey) throw missingApiKey();
    const { gateways, credentials } = this.deps;
    const device = gateways.isGatewayKey(apiKey)
      ? await gateways.deviceOfKey(apiKey)
      : await credentials.byApiKey(apiKey);
    if (!device) throw unknownApiKey();
    if (!device.isValid) throw deviceInactive();
    return device;
  }

  async authenticateDevice(deviceId: string, apiAuthCode: string): Promise<DeviceRow> {
    const device = apiAuthCode ? await this.deps.credentials.byApiKey(apiAuthCode) : undefined;
    // Another device's code is a wrong password for this device id (MQTT: bad username or password).
    if (!device || device.id !== deviceId) throw unknownApiKey();
    if (!device.isValid) throw deviceInactive();
    return device;
  }

  /** The device named by an external broker's topic (the broker authenticated the publisher). */
  async findActiveDevice(deviceId: string): Promise<DeviceRow> {
    const device = await this.deps.credentials.byId(deviceId);
    if (!device) throw deviceNotFound();
    if (!device.isValid) throw deviceInactive();
    return device;
  }

  /**
   * `whenFull` decides what a caller meets when the queue already holds its limit: `'refuse'`
   * (HTTP) `ingestQueueFull` at once; `'wait'` (MQTT) waiting for room, so the PUBACK comes later
   * and the device, its in-flight window full, slows down; after ROOM_WAIT_MS `ingestQueueTimedOut`.
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
        this.deps.log.warn({ queued: this.queuedRows, shed: this.shed }, 'ingest queue full: shedding load');
      }
      throw new DomainError(
        err.waited ? 'ingestQueueTimedOut' : 'ingestQueueFull',
        SERVER_MESSAGES.ingestBusy,
        {
          retryAfterSeconds: 1,
        },
      );
    });
  }

  /** Device-raised events (FALL, SOS, …): the alert engine makes each new one an alert. */
  async ingestAlerts(device: { id: string }, events: AlertEvent[]): Promise<IngestResult> {
    if (events.length === 0) return { accepted: 0, duplicates: 0 };
    const accepted = await this.deps.engine.raiseDeviceEvents(device.id, events, new Date());
    return { accepted, duplicates: events.length - accepted };
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
    const days = this.deps.partitions.retention.raw;
    const cutoff = this.deps.partitions.cutoff('raw', now).getTime();
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
    const started = performance.now();
    const outcomes = await this.deps.readings.store(items, new Date());
    const rows = items.reduce((sum, item) => sum + item.rows.length, 0);
    for (const observe of this.commitObservers) observe(rows, (performance.now() - started) / 1000);
    return outcomes;
  }
}
