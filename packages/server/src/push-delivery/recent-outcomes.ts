/** Final outcomes of recent deliveries, for a health figure: the last `maxEntries` within `windowMs`. */
export class RecentOutcomes {
  private readonly entries: Array<{ at: number; ok: boolean }> = [];

  private readonly windowMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(windowMs = 15 * 60_000, maxEntries = 1000, now: () => number = Date.now) {
    this.windowMs = windowMs;
    this.maxEntries = maxEntries;
    this.now = now;
  }

  record(ok: boolean): void {
    this.entries.push({ at: this.now(), ok });
    this.prune();
  }

  /** Share of failures (0..1), or null when nothing was delivered or failed recently. */
  failureRate(): number | null {
    this.prune();
    if (this.entries.length === 0) return null;
    return this.entries.filter((e) => !e.ok).length / this.entries.length;
  }

  private prune(): void {
    const oldest = this.now() - this.windowMs;
    let drop = Math.max(0, this.entries.length - this.maxEntries);
    while (drop < this.entries.length && this.entries[drop]!.at < oldest) drop += 1;
    if (drop > 0) this.entries.splice(0, drop);
  }
}
