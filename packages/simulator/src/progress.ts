import type { Counters } from './simulation.ts';

const fmt = (n: number) => n.toLocaleString('en-US');
const clock = (ms: number) => {
  const s = Math.floor(ms / 1000);
  const pad = (v: number) => String(v).padStart(2, '0');
  return `${pad(Math.floor(s / 3600))}:${pad(Math.floor(s / 60) % 60)}:${pad(s % 60)}`;
};

/**
 * One live line (rewritten in place on a terminal, a line every 10 s otherwise): what was sent,
 * accepted, refused, and the accepted rate over the last few seconds.
 */
export class Progress {
  private readonly startedAt = Date.now();
  private timer: NodeJS.Timeout | undefined;
  private window: Array<{ at: number; accepted: number }> = [];

  private readonly counters: Counters;
  private readonly label: string;
  private readonly out: NodeJS.WriteStream;

  constructor(counters: Counters, label: string, out: NodeJS.WriteStream = process.stdout) {
    this.counters = counters;
    this.label = label;
    this.out = out;
  }

  start(): void {
    const tty = this.out.isTTY === true;
    this.timer = setInterval(
      () => {
        const line = this.line();
        this.out.write(tty ? `\r${line}\x1b[K` : `${line}\n`);
      },
      tty ? 500 : 10_000,
    );
  }

  stop(): void {
    clearInterval(this.timer);
    if (this.out.isTTY) this.out.write(`\r${this.line()}\x1b[K\n`);
  }

  line(): string {
    const c = this.counters;
    const now = Date.now();
    this.window.push({ at: now, accepted: c.accepted });
    while (this.window.length > 2 && now - this.window[0]!.at > 5000) this.window.shift();
    const first = this.window[0]!;
    const rate = now > first.at ? ((c.accepted - first.accepted) * 1000) / (now - first.at) : 0;
    return [
      `[${this.label}]`,
      `sent ${fmt(c.sent)}`,
      `accepted ${fmt(c.accepted)}`,
      `duplicates ${fmt(c.duplicates)}`,
      `errors ${fmt(c.errors)}`,
      `events ${fmt(c.events)}`,
      `${rate.toFixed(1)}/s`,
      clock(now - this.startedAt),
    ].join(' · ');
  }

  summary(): string {
    const c = this.counters;
    const seconds = (Date.now() - this.startedAt) / 1000;
    const lines = [
      `Summary after ${clock(seconds * 1000)}:`,
      `  readings sent ${fmt(c.sent)}, accepted ${fmt(c.accepted)}, duplicates ${fmt(c.duplicates)}, failed ${fmt(c.errors)}`,
      `  falls and SOS presses sent ${fmt(c.events)}`,
      `  average ${(c.accepted / Math.max(seconds, 0.001)).toFixed(1)} readings/s accepted`,
    ];
    if (c.lastError) lines.push(`  last error: ${c.lastError}`);
    return lines.join('\n');
  }
}

/** Map with at most `size` calls in flight (connecting thousands of MQTT clients at once overwhelms the broker). */
export async function inBatches<T, R>(items: T[], size: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += size) {
    results.push(...(await Promise.all(items.slice(i, i + size).map(fn))));
  }
  return results;
}
