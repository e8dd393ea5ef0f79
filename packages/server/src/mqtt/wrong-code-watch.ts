import type { FastifyBaseLogger } from 'fastify';
import type { FailureThrottle } from '../auth/failure-throttle.ts';

/** Device ids remembered as reported; past it the one reported longest ago is forgotten. */
const REPORTED_MAX = 10_000;

/**
 * Wrong codes per device id, counted only to report an id they keep coming for: a device left
 * with an old code, or someone trying codes. Never a reason to refuse: device ids are not secret
 * (users see them; they are in the topics), so refusing an id after wrong codes would let anyone
 * keep a real device, and its alerts, out; and a 256-bit code needs no lock against guessing.
 * Reported when the count reaches the limit, then at most once a window while it stays there.
 * Codes are never logged.
 */
export class WrongCodeWatch {
  /** Device id → when this process last reported it. */
  private readonly reported = new Map<string, number>();

  private readonly counter: FailureThrottle;
  private readonly windowMs: number;
  private readonly now: () => number;

  constructor(counter: FailureThrottle, windowMs: number, now: () => number = Date.now) {
    this.counter = counter;
    this.windowMs = windowMs;
    this.now = now;
  }

  /** Counts a wrong (or missing) code for the id; `context` (e.g. the address) goes into the report. */
  async wrong(
    deviceId: string,
    log: FastifyBaseLogger,
    context: Record<string, unknown> = {},
  ): Promise<void> {
    if ((await this.counter.fail(deviceId)) === 0) return;
    const at = this.now();
    const last = this.reported.get(deviceId);
    if (last !== undefined && at - last < this.windowMs) return;
    this.reported.delete(deviceId);
    this.reported.set(deviceId, at);
    if (this.reported.size > REPORTED_MAX) this.reported.delete(this.reported.keys().next().value!);
    log.warn(
      { deviceId, ...context },
      `wrong codes keep coming for device ${deviceId}: misconfigured or under attack`,
    );
  }
}
