import { type AlertRecord, alertRecord } from '@vitalwatch/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Tx } from '../db/index.ts';
import type { EventBus } from '../lib/events.ts';
import { settledWithin, withTimeout } from '../lib/time-limit.ts';
import { notifiedUsersOf } from '../modules/alert/service.ts';
import { climbLadders, startLadders } from './fallback-ladder.ts';
import {
  claimDeliveries,
  type DeliveryKind,
  expandFanouts,
  insertDeliveries,
  type JobRow,
  lockDueFanouts,
  type NewDelivery,
  type QueuedDelivery,
  queuedJobs,
  type Settled,
  settleDeliveries,
} from './repository.ts';

/** What one try of one message came to. */
export type SendResult = { ok: true } | { ok: false; detail: string; retryInMs?: number };

/**
 * One alert at one step for its contacts: `notified`, those its snoozes and quiet hours let
 * through; `fallback`, a person the fallback ladder tries on a channel, whatever they opted into.
 */
export interface FanoutItem {
  alert: AlertRecord;
  contactIds: string[];
  notified: Set<string>;
  step: number;
  fallback: boolean;
}

/** A way to reach a person (Web Push, e-mail): who gets which message, and how one is sent. */
export interface OutboxChannel {
  readonly kind: DeliveryKind;
  /** Longest a send may take before it counts as failed (and is tried again). */
  readonly timeoutMs: number;
  /**
   * The messages of each item (their own choices applied), in the items' order: a few queries for
   * the whole batch, not some per alert (a burst of alerts is expanded at the rate it comes in).
   */
  deliveries(tx: Tx, items: readonly FanoutItem[]): Promise<NewDelivery[][]>;
  /** Send one message (`attempt` 1 for the first try); a failure says whether and when to try again. */
  send(job: { id: string; target: string; payload: unknown; attempt: number }): Promise<SendResult>;
}

export interface OutboxOptions {
  /** How often each process looks for due jobs (0: never by itself; other processes or tests turn it). */
  pollMs: number;
  /** How long a claimed delivery is this worker's; must outlast the slowest channel's time-out. */
  leaseMs: number;
  /** Jobs taken per look (fanouts; deliveries). */
  batchSize: number;
  /**
   * Sends in flight at once on this process, per channel: a stuck receiver holds one slot, not the
   * queue, and a channel whose receivers are slow or down (a webhook answering after 10 s) never
   * holds back another's sends (Web Push, SMS).
   */
  maxInFlight: number;
}

const DEFAULTS: OutboxOptions = { pollMs: 250, leaseMs: 60_000, batchSize: 50, maxInFlight: 64 };
/** Outcomes are written together, at most this long after the first of them is known. */
const SETTLE_MS = 20;
/**
 * How long shutting down waits for the batch in flight. A batch stuck on a database that does not
 * answer is left to its lease: its jobs stay queued, and another process (or this one, restarted)
 * sends them once the lease ends. Shutdown is never held by it.
 */
const STOP_WAIT_MS = 10_000;

/**
 * Runs the notification outbox on this process: expands each alert's fanout row into one row per
 * message, claims due messages under a lease, sends them (each with a time-out) and records each
 * outcome with the row's change in one transaction. Every process runs one; SKIP LOCKED and the
 * lease make each message go out once. A process that dies after a send and before recording it
 * leaves the row to be sent again once the lease ends: receivers drop the repeat by its id.
 */
export class NotificationOutbox {
  /** Final outcomes since start, by channel (for /metrics). */
  readonly totals: Record<DeliveryKind, { ok: number; failed: number }> = {
    push: { ok: 0, failed: 0 },
    email: { ok: 0, failed: 0 },
    sms: { ok: 0, failed: 0 },
    webhook: { ok: 0, failed: 0 },
  };
  private readonly options: OutboxOptions;
  private readonly channels: Map<DeliveryKind, OutboxChannel>;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;
  private again = false;
  private stopped = false;
  /** The last claim was cut short by `maxInFlight`: a finished send makes room to look again. */
  private saturated = false;
  private readonly inFlight = new Set<Promise<void>>();
  /** Sends in flight by channel (`maxInFlight` each). */
  private readonly inFlightBy = new Map<DeliveryKind, number>();
  /** Outcomes not yet written, and the write in progress. */
  private settled: Settled[] = [];
  private settleTimer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  private readonly kick = () => this.wake();

  private readonly db: Db;
  private readonly log: FastifyBaseLogger;

  constructor(
    db: Db,
    channels: OutboxChannel[],
    log: FastifyBaseLogger,
    options: Partial<OutboxOptions> = {},
  ) {
    this.db = db;
    this.log = log;
    this.channels = new Map(channels.map((c) => [c.kind, c]));
    this.options = { ...DEFAULTS, ...options };
  }

  /**
   * Poll on a timer, and look at once when this process commits alerts or an escalation step. With
   * `pollMs` 0 this process sends nothing: the other processes send what it queues.
   */
  start(events: EventBus): void {
    if (this.options.pollMs <= 0) return;
    events.on('alerts', this.kick);
    events.on('escalation', this.kick);
    this.timer = setInterval(() => this.wake(), this.options.pollMs);
    this.timer.unref();
  }

  async stop(events: EventBus): Promise<void> {
    this.stopped = true;
    events.off('alerts', this.kick);
    events.off('escalation', this.kick);
    clearInterval(this.timer);
    const finished = (async () => {
      await this.running;
      await Promise.all(this.inFlight);
      await this.flush();
    })().catch((error: unknown) => this.log.warn({ err: error }, 'outbox: the last batch did not finish'));
    if (!(await settledWithin(finished, STOP_WAIT_MS)))
      this.log.warn('outbox: stopped with a batch in flight; its jobs go out when their lease ends');
  }

  /** Run one batch of due fanouts and deliveries now, sent and recorded; resolves to how many jobs it handled. */
  async runOnce(now: Date = new Date()): Promise<number> {
    const fanouts = await this.expandDueFanouts(now);
    const rungs = await this.climbDueLadders(now);
    const sends = await this.claimAndSend(now);
    await Promise.all(sends);
    await this.flush();
    return fanouts + rungs + sends.length;
  }

  /** Resolves once no job is queued (sent, or dead after its last try), or rejects after `timeoutMs`. */
  async idle(timeoutMs = 15_000): Promise<void> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const handled = await this.runOnce();
      await Promise.all(this.inFlight);
      await this.flush();
      if (handled === 0 && (await queuedJobs(this.db)) === 0) return;
      if (Date.now() > until) throw new Error('notification outbox not idle in time');
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  private wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain().finally(() => {
      this.running = undefined;
    });
  }

  /** Batches until one comes back short (more is probably not due yet), or a look was asked for meanwhile. */
  private async drain(): Promise<number> {
    let handled = 0;
    try {
      for (;;) {
        this.again = false;
        const n =
          (await this.expandDueFanouts(new Date())) +
          (await this.climbDueLadders(new Date())) +
          (await this.claimAndSend(new Date())).length;
        handled += n;
        if (this.stopped || (n < this.options.batchSize && !this.again)) return handled;
      }
    } catch (err) {
      this.log.error({ err }, 'notification outbox run failed');
      return handled;
    }
  }

  private async expandDueFanouts(now: Date): Promise<number> {
    return this.db.transaction(async (tx) => {
      const rows = await lockDueFanouts(tx, now, this.options.batchSize);
      if (rows.length === 0) return 0;
      const fanouts = rows.map((r) => ({
        alert: alertRecord.parse(r.payload),
        contactIds: r.contact_ids ?? [],
        step: r.step,
      }));
      const notified = await notifiedUsersOf(
        tx,
        fanouts.map((f) => ({ userIds: f.contactIds, alert: f.alert })),
        now,
      );
      const items = fanouts.map((f, i) => ({
        ...f,
        notified: notified[i] ?? new Set<string>(),
        fallback: false,
      }));
      const deliveries: QueuedDelivery[] = [];
      for (const channel of this.channels.values()) {
        const made = await channel.deliveries(tx, items);
        made.forEach((list, i) => {
          const { alert, step } = items[i]!;
          deliveries.push(...list.map((d) => ({ ...d, kind: channel.kind, alertId: alert._id, step })));
        });
      }
      await expandFanouts(
        tx,
        rows.map((r) => r.id),
        deliveries,
      );
      await startLadders(tx, fanouts, now);
      return rows.length;
    });
  }

  /** Take the due rungs of fallback ladders: each queues the person's next channel, or ends. */
  private async climbDueLadders(now: Date): Promise<number> {
    return this.db.transaction(async (tx) => {
      const { rungs, queued } = await climbLadders(
        tx,
        now,
        this.options.batchSize,
        async (t, kind, asked) => {
          const channel = this.channels.get(kind);
          if (!channel) return asked.map(() => undefined);
          const notices = asked.map(({ alert, userId }) => ({ alert, userIds: [userId] }));
          const notified = await notifiedUsersOf(t, notices, now);
          const items = asked.map(({ alert, userId }, i) => ({
            alert,
            contactIds: [userId],
            notified: notified[i] ?? new Set<string>(),
            step: 0,
            fallback: true,
          }));
          return channel.deliveries(t, items);
        },
      );
      await insertDeliveries(tx, queued);
      return rungs;
    });
  }

  /**
   * Claim what each channel has room for on this process and start sending it; resolves to the
   * sends started.
   */
  private async claimAndSend(now: Date): Promise<Promise<void>[]> {
    const sends: Promise<void>[] = [];
    this.saturated = false;
    for (const kind of this.channels.keys()) {
      const room = this.options.maxInFlight - (this.inFlightBy.get(kind) ?? 0);
      if (room < this.options.batchSize) this.saturated = true;
      if (room <= 0) continue;
      const claimed = await claimDeliveries(
        this.db,
        now,
        this.options.leaseMs,
        Math.min(room, this.options.batchSize),
        kind,
      );
      for (const job of claimed) sends.push(this.startSend(kind, job));
    }
    return sends;
  }

  private startSend(kind: DeliveryKind, job: JobRow): Promise<void> {
    this.inFlightBy.set(kind, (this.inFlightBy.get(kind) ?? 0) + 1);
    const send: Promise<void> = this.sendOne(job)
      .then((outcome) => this.settle(outcome))
      .finally(() => {
        this.inFlight.delete(send);
        this.inFlightBy.set(kind, (this.inFlightBy.get(kind) ?? 1) - 1);
        if (this.saturated) this.wake();
      });
    this.inFlight.add(send);
    return send;
  }

  private settle(outcome: Settled): void {
    this.settled.push(outcome);
    const { kind } = outcome.job;
    if (outcome.kind !== 'retry' && kind !== 'fanout' && kind !== 'fallback') {
      this.totals[kind][outcome.kind === 'sent' ? 'ok' : 'failed'] += 1;
    }
    this.settleTimer ??= setTimeout(() => void this.flush(), SETTLE_MS);
  }

  /**
   * Write the outcomes known so far in one transaction. If that fails the rows stay claimed, and
   * are sent again when their lease ends (a repeat rather than a loss).
   */
  private flush(): Promise<void> {
    clearTimeout(this.settleTimer);
    this.settleTimer = undefined;
    const batch = this.settled;
    this.settled = [];
    if (batch.length > 0) {
      this.writing = this.writing.then(() =>
        this.db
          .transaction((tx) => settleDeliveries(tx, batch, new Date()))
          .catch((err: unknown) =>
            this.log.error({ err, outcomes: batch.length }, 'notification outcomes not recorded'),
          ),
      );
    }
    return this.writing;
  }

  private async sendOne(job: JobRow): Promise<Settled> {
    const channel =
      job.kind === 'fanout' || job.kind === 'fallback' ? undefined : this.channels.get(job.kind);
    if (!channel || job.target === null) return { job, kind: 'dead', detail: `no ${job.kind} channel` };
    let result: SendResult;
    try {
      result = await withTimeout(
        channel.send({ id: job.id, target: job.target, payload: job.payload, attempt: job.attempts }),
        channel.timeoutMs,
        `${job.kind} send`,
      );
    } catch (err) {
      // A time-out or a bug: the message may or may not have left, so it is tried again (once more at most).
      const detail = err instanceof Error ? err.message : String(err);
      result = { ok: false, detail, retryInMs: job.attempts < 2 ? 1000 : undefined };
    }
    if (result.ok) return { job, kind: 'sent' };
    if (result.retryInMs !== undefined) {
      return { job, kind: 'retry', at: new Date(Date.now() + result.retryInMs), detail: result.detail };
    }
    this.log.warn(
      { jobId: job.id, channel: job.kind, attempts: job.attempts, detail: result.detail },
      'notification dead-lettered',
    );
    return { job, kind: 'dead', detail: result.detail };
  }
}
