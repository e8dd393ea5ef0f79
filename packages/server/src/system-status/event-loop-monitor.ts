import { type ELDHistogram, monitorEventLoopDelay } from 'node:perf_hooks';

export interface EventLoopMonitorOptions {
  /** Sampling period of the histogram. */
  resolutionMs?: number;
  /** Length of one measuring window; the last complete window is what `lagMs` reports. */
  windowMs?: number;
}

const NS_PER_MS = 1e6;
const LAG_PERCENTILE = 90;

/**
 * How late the event loop runs: the 90th percentile of timer delays beyond the sampling period,
 * over the last complete window (or the current one until a window has completed). A single
 * stall (a large query, a busy machine) moves it little; a high value means most requests wait.
 */
export class EventLoopMonitor {
  private readonly histogram: ELDHistogram;
  private readonly resolutionMs: number;
  private readonly timer: NodeJS.Timeout;
  private lastWindowLagMs: number | undefined;

  constructor({ resolutionMs = 20, windowMs = 30_000 }: EventLoopMonitorOptions = {}) {
    this.resolutionMs = resolutionMs;
    this.histogram = monitorEventLoopDelay({ resolution: resolutionMs });
    this.histogram.enable();
    this.timer = setInterval(() => {
      this.lastWindowLagMs = this.currentLagMs();
      this.histogram.reset();
    }, windowMs);
    this.timer.unref();
  }

  /** Milliseconds the loop ran late (p90); 0 when nothing has been sampled yet. */
  lagMs(): number {
    return this.lastWindowLagMs ?? this.currentLagMs();
  }

  stop(): void {
    clearInterval(this.timer);
    this.histogram.disable();
  }

  private currentLagMs(): number {
    if (this.histogram.count === 0) return 0;
    return Math.max(0, this.histogram.percentile(LAG_PERCENTILE) / NS_PER_MS - this.resolutionMs);
  }
}
