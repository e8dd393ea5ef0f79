import { randomBytes } from 'node:crypto';
import { INGEST_BATCH_MAX } from '@vitalwatch/shared';
import type { SimulatedDevice } from './devices.ts';
import type { DeviceLink } from './links.ts';
import { seedFrom, VitalsModel } from './vitals.ts';

export interface Counters {
  /** Readings handed to a link. */
  sent: number;
  accepted: number;
  duplicates: number;
  /** Readings whose send finally failed. */
  errors: number;
  /** Device events (falls, SOS) sent. */
  events: number;
  inFlight: number;
  lastError: string | undefined;
}

export const newCounters = (): Counters => ({
  sent: 0,
  accepted: 0,
  duplicates: 0,
  errors: 0,
  events: 0,
  inFlight: 0,
  lastError: undefined,
});

interface DeviceRun {
  device: SimulatedDevice;
  link: DeviceLink;
  model: VitalsModel;
  /** Readings taken while a send was in flight: sent together next, as a real device's buffer. */
  backlog: object[];
  sending: boolean;
  timer: NodeJS.Timeout | undefined;
}

/**
 * Every device takes a reading each `intervalMs` (starting at a random offset so they do not
 * all report at once) and sends it; readings taken while a send is in flight are buffered and
 * sent as one batch. Each item carries a messageId unique to this run.
 */
export class Simulation {
  readonly counters = newCounters();
  private readonly runs: DeviceRun[];
  private readonly runId = randomBytes(4).toString('hex');
  private seq = 0;
  private stopped = false;
  private readonly pending = new Set<Promise<void>>();

  private readonly intervalMs: number;

  constructor(devices: SimulatedDevice[], links: DeviceLink[], intervalMs: number, seed: number) {
    this.intervalMs = intervalMs;
    this.runs = devices.map((device, i) => ({
      device,
      link: links[i]!,
      model: new VitalsModel(seedFrom(device._id) ^ seed),
      backlog: [],
      sending: false,
      timer: undefined,
    }));
  }

  start(): void {
    for (const run of this.runs) {
      const firstAt = Date.now() + Math.random() * this.intervalMs;
      const tick = (due: number) => {
        if (this.stopped) return;
        this.take(run);
        const next = due + this.intervalMs;
        run.timer = setTimeout(() => tick(next), Math.max(0, next - Date.now()));
      };
      run.timer = setTimeout(() => tick(firstAt), firstAt - Date.now());
    }
  }

  /** Stop taking readings, send what is buffered, wait for answers (at most `timeoutMs`). */
  async stop(timeoutMs = 10_000): Promise<void> {
    this.stopped = true;
    for (const run of this.runs) clearTimeout(run.timer);
    const deadline = Date.now() + timeoutMs;
    while ((this.pending.size > 0 || this.runs.some((r) => r.backlog.length > 0)) && Date.now() < deadline) {
      for (const run of this.runs) if (!run.sending && run.backlog.length > 0) this.flush(run);
      await Promise.race([Promise.allSettled(this.pending), new Promise((r) => setTimeout(r, 200))]);
    }
    await Promise.allSettled(this.runs.map((r) => r.link.close()));
  }

  private take(run: DeviceRun) {
    const now = Date.now();
    const recordedAt = new Date(now).toISOString();
    const { reading, events } = run.model.next(now);
    run.backlog.push({ messageId: this.messageId(), recordedAt, ...reading });
    for (const event of events) {
      this.counters.events++;
      this.track(
        run.link.send('alert', [{ messageId: this.messageId(), recordedAt, ...event }]).then(
          () => {},
          (err: unknown) => this.fail(err, 0),
        ),
      );
    }
    if (!run.sending) this.flush(run);
  }

  private flush(run: DeviceRun) {
    const items = run.backlog.splice(0, INGEST_BATCH_MAX);
    if (items.length === 0) return;
    run.sending = true;
    this.counters.sent += items.length;
    this.counters.inFlight += items.length;
    this.track(
      run.link
        .send('health', items)
        .then(
          (result) => {
            this.counters.accepted += result.accepted;
            this.counters.duplicates += result.duplicates;
          },
          (err: unknown) => this.fail(err, items.length),
        )
        .finally(() => {
          this.counters.inFlight -= items.length;
          run.sending = false;
          if (run.backlog.length > 0 && !this.stopped) this.flush(run);
        }),
    );
  }

  private track(promise: Promise<void>) {
    this.pending.add(promise);
    void promise.finally(() => this.pending.delete(promise));
  }

  private fail(err: unknown, readings: number) {
    this.counters.errors += readings || 1;
    this.counters.lastError = err instanceof Error ? err.message : String(err);
  }

  private messageId() {
    this.seq++;
    return `${this.runId}-${this.seq.toString(36)}`;
  }
}
